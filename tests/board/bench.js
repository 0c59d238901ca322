// Figures for docs/performance.md ("The interactive board"): the size of what a page loads for the board, the
// time to interactive in Chromium (median of several loads), and the computer player's answer time with the
// widget's settings on every shipped ruleset (the wasm engine in Node, from the start and the next plies).
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const zlib = require('zlib');
const { load } = require('./engine');

const ROOT = path.join(__dirname, '..', '..');
const STATIC = path.join(ROOT, 'templates', 'static');
// The same budget as templates/static/board.js gives the computer.
const NODES = 4000000;
const thinkMs = (info) => (info.family === 'sowing' ? Math.max(300, 700 - 5 * (info.holesPerSide || 0)) : 700);
const median = (xs) => { const s = xs.slice().sort((a, b) => a - b); return s[Math.floor((s.length - 1) / 2)]; };

async function sizes() {
  let total = 0;
  for (const f of ['engine.js', 'board.js', 'board.css']) {
    const raw = fs.readFileSync(path.join(STATIC, f));
    const gz = zlib.gzipSync(raw, { level: 9 }).length;
    total += gz;
    console.log(`size ${f}: ${raw.length} bytes, ${gz} gzip`);
  }
  const wasm = JSON.parse(/"wasm-bytes": (\d+)/.exec(fs.readFileSync(path.join(STATIC, 'engine.js'), 'utf8'))[1]);
  console.log(`size wasm (inside engine.js): ${wasm} bytes; total gzip of the three files: ${total}`);
}

async function interactive() {
  if (!process.env.SITE_DIR) return;
  const { chromium } = require('playwright-core');
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'ludotheca-bench-'));
  const ctx = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium', headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
  for (const item of ['terhuchu', 'bagh-chal', 'tchouba']) {
    const ready = [], dcl = [];
    for (let i = 0; i < 9; i++) {
      const page = await ctx.newPage();
      await page.goto('file://' + path.join(process.env.SITE_DIR, 'games', item, 'index.html'));
      await page.waitForSelector('[data-widget="board"][data-ready="true"]');
      ready.push(+(await page.$eval('[data-widget="board"]', (e) => e.dataset.readyMs)));
      dcl.push(await page.evaluate(() => Math.round(performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd)));
      await page.close();
    }
    const after = ready.map((r, i) => r - dcl[i]);
    console.log(`interactive ${item}: median ${median(ready)} ms after navigation start (max ${Math.max(...ready)}), ` +
      `DOMContentLoaded median ${median(dcl)} ms, ready after DOMContentLoaded median ${median(after)} ms (max ${Math.max(...after)})`);
  }
  await ctx.close();
  fs.rmSync(profile, { recursive: true, force: true });
}

async function computer() {
  const engine = await load();
  const games = path.join(ROOT, 'catalog', 'games');
  const all = [];
  for (const item of fs.readdirSync(games).sort()) {
    const file = path.join(games, item, 'rules.txt');
    if (!fs.existsSync(file)) continue;
    const rules = fs.readFileSync(file, 'utf8');
    const h0 = engine.game(rules, '');
    const rulesets = JSON.parse(engine.call('lt_info', [h0])).rulesets.map((r) => r.name);
    engine.ex.lt_drop(h0);
    const times = [];
    for (const rs of rulesets) {
      const h = engine.game(rules, rs);
      const ms = thinkMs(JSON.parse(engine.call('lt_info', [h])));
      for (let ply = 0; ply < 3; ply++) {
        const t0 = performance.now();
        const out = engine.call('lt_think', [h, NODES, ms, 7 + ply]);
        times.push(performance.now() - t0);
        if (out === 'null') break;
        engine.call('lt_play', [h], JSON.parse(out).n);
      }
      engine.ex.lt_drop(h);
    }
    all.push(...times);
    console.log(`computer ${item} (${rulesets.length} rulesets, ${times.length} answers): median ${median(times).toFixed(0)} ms, max ${Math.max(...times).toFixed(0)} ms`);
  }
  console.log(`computer, every ruleset: median ${median(all).toFixed(0)} ms, max ${Math.max(...all).toFixed(0)} ms`);
}

(async () => {
  await sizes();
  await interactive();
  await computer();
})().catch((err) => { console.error(err); process.exit(1); });
