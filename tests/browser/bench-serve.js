#!/usr/bin/env node
/* How long an edit takes to reach an open page of `ludotheca serve` in headless Chromium (Debian's, driven by
 * playwright-core): the page of a game is open; its record gets a new title EDITS times, a second apart; each
 * time, from the file written to the page reloaded by itself with the new title: to its first contentful paint
 * (the new page on screen) and to its `load` event (its scripts run, the board ready).
 * Run by `scripts/bench-serve --browser`, which makes the catalog.
 * Usage: node bench-serve.js LUDOTHECA_BINARY CATALOG_DIR OUT_DIR EDITS */
'use strict';
const { spawn } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const readline = require('readline');
const { launch } = require('./chromium');

const [binary, catalog, out] = process.argv.slice(2, 5).map((p) => path.resolve(p));
const edits = Number(process.argv[5] || 9);

function startServer() {
  const child = spawn(binary, ['serve', '--port', '0', '--quiet', '--catalog', catalog, '--out', out], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    readline.createInterface({ input: child.stdout }).once('line', (line) => {
      const match = /http:\/\/[^/\s]+\//.exec(line);
      if (match) resolve({ child, url: match[0] });
      else reject(new Error('serve printed no address: ' + line));
    });
    child.once('exit', (code) => reject(new Error('serve exited with ' + code)));
  });
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

async function main() {
  // The record edited: the first game of the first group, as scripts/bench-serve edits.
  const games = path.join(catalog, 'games');
  const group = fs.readdirSync(games).sort().find((g) => g.startsWith('set-0'));
  const item = fs.readdirSync(path.join(games, group)).sort()[0];
  const record = path.join(games, group, item, 'record.xml');
  const original = fs.readFileSync(record, 'utf8');
  const { child, url } = await startServer();
  const { context, profile } = await launch();
  const times = [];
  const painted = [];
  try {
    const page = context.pages()[0] || (await context.newPage());
    await page.goto(`${url}games/${item}/index.html`);
    await page.waitForFunction(() => performance.getEntriesByType('resource').some((e) => /__ludotheca\/live\.js/.test(e.name)));
    await page.waitForTimeout(1000);
    for (let i = 0; i < edits; i++) {
      const title = `Edited in the browser ${i}`;
      const loaded = page.waitForEvent('load', { timeout: 30000 });
      const written = performance.now();
      const writtenAt = performance.timeOrigin + written;
      fs.writeFileSync(record, original.replace(/<dcterms:title>.*?<\/dcterms:title>/, `<dcterms:title>${title}</dcterms:title>`));
      await loaded;
      const took = performance.now() - written;
      const heading = await page.locator('h1').first().innerText();
      if (heading !== title) throw new Error(`edit ${i}: the reloaded page shows "${heading}", not "${title}"`);
      times.push(took);
      // The reload's own part: from its start to the response, to the document parsed, to the load event.
      // Both clocks count from the epoch, so the page's first paint can be set against the write.
      const nav = await page.evaluate(() => {
        const n = performance.getEntriesByType('navigation')[0];
        const paint = performance.getEntriesByType('paint').find((p) => p.name === 'first-contentful-paint');
        return {
          origin: performance.timeOrigin,
          times: [n.responseEnd, paint ? paint.startTime : NaN, n.domContentLoadedEventEnd, n.loadEventEnd],
        };
      });
      const paintedAfter = nav.origin + nav.times[1] - writtenAt;
      painted.push(paintedAfter);
      const [response, paint, document, load] = nav.times.map((t) => Math.round(t));
      console.log(`edit ${i}: the new page painted ${paintedAfter.toFixed(0)} ms and loaded ${took.toFixed(0)} ms ` +
        `after the file was written (the reload itself: response ${response} ms, first paint ${paint} ms, ` +
        `document ${document} ms, load ${load} ms)`);
      await page.waitForTimeout(1000);
    }
    const range = (v) => `${Math.min(...v).toFixed(0)}-${Math.max(...v).toFixed(0)}`;
    console.log(`median of ${edits}: painted ${median(painted).toFixed(0)} ms (range ${range(painted)}), ` +
      `loaded ${median(times).toFixed(0)} ms (range ${range(times)}); load average ${os.loadavg()[0].toFixed(1)}`);
  } finally {
    fs.writeFileSync(record, original);
    await context.close();
    fs.rmSync(profile, { recursive: true, force: true });
    child.kill('SIGINT');
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
