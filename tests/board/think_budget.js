// How much the computer player does in the page's time budget: the wasm engine in Node, the same call and
// budget as templates/static/board.js makes (`lt_think`, 4,000,000 nodes, 700 ms or less on long sowing boards),
// over the first plies of a game of the player against itself. The match runner (engine/examples/match.rs)
// takes its per-move budgets in nodes or iterations from these counts (docs/performance.md, "The computer
// player"). Wall-clock budgets give fewer nodes on a busy machine, so it also gives nodes per CPU second and
// what the budget holds on an idle core. Usage: node tests/board/think_budget.js [ENGINE-JS] [PLIES]
'use strict';
const fs = require('fs');
const path = require('path');
const zlib = require('zlib');

const ROOT = path.join(__dirname, '..', '..');
const ENGINE_JS = process.argv[2] || path.join(ROOT, 'templates', 'static', 'engine.js');
const PLIES = +(process.argv[3] || 6);
const GAMES = [['bagh-chal', ''], ['mogol-putthan', 'murray'], ['tchouba', '4x8']];
const thinkMs = (info) => (info.family === 'sowing' ? Math.max(300, 700 - 5 * (info.holesPerSide || 0)) : 700);
const median = (xs) => { const s = xs.slice().sort((a, b) => a - b); return s[Math.floor((s.length - 1) / 2)]; };

(async () => {
  const text = fs.readFileSync(ENGINE_JS, 'utf8');
  const wasm = zlib.gunzipSync(Buffer.from(/"gzip-base64": "([^"]*)"/.exec(text)[1], 'base64'));
  const { instance } = await WebAssembly.instantiate(wasm, { env: { now_ms: () => performance.now() } });
  const ex = instance.exports;
  const enc = new TextEncoder(), dec = new TextDecoder();
  const put = (s) => { const b = enc.encode(s); const p = ex.lt_alloc(b.length); new Uint8Array(ex.memory.buffer, p, b.length).set(b); return [p, b.length]; };
  const out = () => dec.decode(new Uint8Array(ex.memory.buffer, ex.lt_out_ptr(), ex.lt_out_len()));
  for (const [item, rs] of GAMES) {
    const rules = fs.readFileSync(path.join(ROOT, 'catalog', 'games', item, 'rules.txt'), 'utf8');
    const a = put(rules), b = put(rs);
    const h = ex.lt_new(a[0], a[1], b[0], b[1]);
    ex.lt_info(h);
    const ms = thinkMs(JSON.parse(out()));
    const nodes = [], times = [], rates = [];
    for (let ply = 0; ply < PLIES; ply++) {
      const t0 = performance.now(), c0 = process.cpuUsage();
      ex.lt_think(h, 4000000, ms, 7 + ply);
      times.push(performance.now() - t0);
      const c1 = process.cpuUsage(c0);
      const answer = out();
      if (answer === 'null') break;
      const c = JSON.parse(answer);
      nodes.push(c.nodes);
      rates.push(c.nodes / ((c1.user + c1.system) / 1e6));
      const m = put(c.n);
      ex.lt_play(h, m[0], m[1]);
    }
    console.log(`${item} ${rs || '(first)'}: ${ms} ms a move; nodes ${nodes.join(' ')}; median ${median(nodes)} nodes in a median ${median(times).toFixed(0)} ms; ` +
      `${Math.round(median(rates))} nodes per CPU second, so ${Math.round(median(rates) * ms / 1000)} nodes on an idle core`);
  }
})().catch((err) => { console.error(err); process.exit(1); });
