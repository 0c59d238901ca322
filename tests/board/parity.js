// Parity: the wasm engine (templates/static/engine.js) replays every record of the shipped catalog, and at
// every ply its position (setup notation), outcome and legal moves (sorted notation) equal the native engine's,
// which engine/examples/replay_dump.rs prints (its path in NATIVE_DUMP, one JSON line per record).
'use strict';
const fs = require('fs');
const path = require('path');
const { load } = require('./engine');

const ROOT = path.join(__dirname, '..', '..');
const FULL_LIST = 2000;

function fnv(text) {
  const prime = 0x100000001b3n, mask = (1n << 64n) - 1n;
  let h = 0xcbf29ce484222325n;
  for (const b of Buffer.from(text)) h = ((h ^ BigInt(b)) * prime) & mask;
  return h.toString(16).padStart(16, '0');
}

function byteOrder(a, b) { return Buffer.compare(Buffer.from(a), Buffer.from(b)); }

(async () => {
  const native = new Map();
  for (const line of fs.readFileSync(process.env.NATIVE_DUMP, 'utf8').split('\n')) {
    if (line.trim()) { const r = JSON.parse(line); native.set(r.file, r); }
  }
  const engine = await load();
  const catalog = path.join(ROOT, 'catalog');
  let records = 0, plies = 0, moves = 0;
  const failures = [];
  for (const item of fs.readdirSync(path.join(catalog, 'games')).sort()) {
    const dir = path.join(catalog, 'games', item);
    if (!fs.existsSync(path.join(dir, 'rules.txt')) || !fs.existsSync(path.join(dir, 'games'))) continue;
    const rules = fs.readFileSync(path.join(dir, 'rules.txt'), 'utf8');
    for (const name of fs.readdirSync(path.join(dir, 'games')).filter((f) => f.endsWith('.game')).sort()) {
      const file = `games/${item}/games/${name}`;
      const text = fs.readFileSync(path.join(dir, 'games', name), 'utf8');
      const ruleset = (/^\[Ruleset "([^"]*)"\]/m.exec(text) || [])[1] || '';
      const expected = native.get(file);
      if (!expected) { failures.push(`${file}: the native engine did not replay it`); continue; }
      const h = engine.game(rules, ruleset);
      try {
        engine.call('lt_load_record', [h], text);
        expected.plies.forEach((want, ply) => {
          engine.call('lt_goto', [h, ply]);
          const st = JSON.parse(engine.call('lt_state', [h]));
          if (st.ply !== ply) throw new Error(`ply ${ply}: the line is ${st.length} long`);
          if (st.setup !== want.setup) throw new Error(`ply ${ply}: position ${st.setup} != ${want.setup}`);
          if (st.outcome !== want.outcome) throw new Error(`ply ${ply}: outcome ${st.outcome} != ${want.outcome}`);
          const out = engine.call('lt_legal_notation', [h]);
          const list = out ? out.split('\n').sort(byteOrder) : [];
          if (list.length !== want.count) throw new Error(`ply ${ply}: ${list.length} legal moves, native ${want.count}`);
          if (fnv(list.join('\n')) !== want.fnv) {
            const extra = want.moves ? list.filter((m) => !want.moves.includes(m)).slice(0, 5) : [];
            throw new Error(`ply ${ply}: legal moves differ ${extra.join(' ')}`);
          }
          if (want.count <= FULL_LIST && want.moves.join('\n') !== list.join('\n')) throw new Error(`ply ${ply}: legal moves differ`);
          plies += 1;
          moves += list.length;
        });
        native.delete(file);
        records += 1;
      } catch (err) {
        failures.push(`${file}: ${err.message}`);
      } finally {
        engine.ex.lt_drop(h);
      }
    }
  }
  for (const file of native.keys()) failures.push(`${file}: replayed natively but not found by the wasm side`);
  if (failures.length) {
    console.error(`parity: ${failures.length} failure(s)\n  ` + failures.join('\n  '));
    process.exit(1);
  }
  console.log(`parity: ${records} records, ${plies} positions, ${moves} legal moves: wasm equals native`);
})().catch((err) => { console.error(err); process.exit(1); });
