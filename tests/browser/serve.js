#!/usr/bin/env node
/* The preview server in headless Chromium (Debian's, driven by playwright-core, as run.js): a page of
 * `ludotheca serve` shows the diagnostics overlay by itself when its record is broken, and reloads by itself,
 * without the overlay, when the record is fixed. The server runs on a copy of the shipped catalog and a free
 * loopback port, and is stopped with SIGINT (Ctrl-C), which must end it with exit code 0.
 * Usage: node serve.js LUDOTHECA_BINARY CATALOG_DIR */
'use strict';
const { spawn } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const readline = require('readline');
const { launch } = require('./chromium');

const binary = path.resolve(process.argv[2] || path.join(__dirname, '..', '..', 'target', 'release', 'ludotheca'));
const shipped = path.resolve(process.argv[3] || path.join(__dirname, '..', '..', 'catalog'));
let failures = 0;

function fail(message) {
  failures++;
  console.error('FAIL ' + message);
}
function pass(message) {
  console.log('ok   ' + message);
}

function startServer(catalog, out) {
  const child = spawn(binary, ['serve', '--port', '0', '--quiet', '--catalog', catalog, '--out', out], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    const lines = readline.createInterface({ input: child.stdout });
    lines.once('line', (line) => {
      const match = /http:\/\/[^/\s]+\//.exec(line);
      if (match) resolve({ child, url: match[0] });
      else reject(new Error('serve printed no address: ' + line));
    });
    child.once('exit', (code) => reject(new Error('serve exited with ' + code)));
  });
}

function stopServer(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve(child.exitCode);
    child.once('exit', (code) => resolve(code));
    child.kill('SIGINT');
  });
}

async function main() {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ludotheca-serve-'));
  const catalog = path.join(work, 'catalog');
  fs.cpSync(shipped, catalog, { recursive: true });
  const record = path.join(catalog, 'games', 'bagh-chal', 'record.xml');
  const original = fs.readFileSync(record, 'utf8');
  const { child, url } = await startServer(catalog, path.join(work, 'site'));
  const { context, profile } = await launch();
  try {
    const page = context.pages()[0] || (await context.newPage());
    const problems = [];
    page.on('pageerror', (err) => problems.push('uncaught: ' + err.message));
    await page.goto(url + 'games/bagh-chal/index.html');
    // Wait until the page listens for builds: the event stream is open.
    await page.waitForFunction(() => performance.getEntriesByType('resource').some((e) => /__ludotheca\/live\.js/.test(e.name)));
    await page.waitForTimeout(300);

    // Broken: the page reloads by itself and shows the diagnostics over the last good page.
    await page.evaluate(() => { window.ludothecaTestMark = true; });
    fs.writeFileSync(record, original.replace(/dcterms:title>/g, 'dcterms:titel>'));
    const overlay = page.locator('#ludotheca-overlay');
    await overlay.waitFor({ state: 'visible', timeout: 10000 });
    const text = await overlay.innerText();
    const reloaded = await page.evaluate(() => window.ludothecaTestMark === undefined);
    if (!/error\[E009\]/.test(text) || !/games\/bagh-chal\/record\.xml:6:4/.test(text) || !/help: did you mean `dcterms:title`\?/.test(text)) {
      fail('the overlay does not show the diagnostic with its place and help: ' + text.slice(0, 400));
    } else if (!reloaded) {
      fail('the overlay appeared without the page reloading');
    } else {
      pass('a broken record: the page reloads by itself and shows error[E009] at record.xml:6:4 with its help');
    }
    const heading = await page.locator('h1').innerText();
    if (heading.trim() !== 'Bagh-Chal') fail('the last good page is not under the overlay: ' + heading);

    // Fixed (with a visible change): the page reloads by itself, without the overlay.
    await page.evaluate(() => { window.ludothecaTestMark = true; });
    fs.writeFileSync(record, original.replace('<dcterms:title>Bagh-Chal</dcterms:title>', '<dcterms:title>Bagh-Chal, fixed</dcterms:title>'));
    await page.waitForFunction(() => document.querySelector('h1') && document.querySelector('h1').textContent.trim() === 'Bagh-Chal, fixed', null, { timeout: 10000 });
    const gone = (await overlay.count()) === 0;
    const again = await page.evaluate(() => window.ludothecaTestMark === undefined);
    if (!gone) fail('the overlay is still there after the fix');
    else if (!again) fail('the page changed without reloading');
    else pass('the fix: the page reloads by itself, with the new title and no overlay');

    // Another edit with three pages open: the edited one reloads first, the browse page (which lists the
    // item by its title) when the rest of the site is rebuilt, and the About page, untouched, never.
    const about = await context.newPage();
    const browse = await context.newPage();
    for (const [tab, where] of [[about, 'about/index.html'], [browse, 'browse/index.html']]) {
      tab.on('pageerror', (err) => problems.push('uncaught: ' + err.message));
      await tab.goto(url + where);
      await tab.waitForFunction(() => performance.getEntriesByType('resource').some((e) => /__ludotheca\/live\.js/.test(e.name)));
    }
    await page.waitForTimeout(300);
    for (const tab of [page, about, browse]) await tab.evaluate(() => { window.ludothecaTestMark = true; });
    fs.writeFileSync(record, original.replace('<dcterms:title>Bagh-Chal</dcterms:title>', '<dcterms:title>Bagh-Chal, twice</dcterms:title>'));
    await page.waitForFunction(() => document.querySelector('h1') && document.querySelector('h1').textContent.trim() === 'Bagh-Chal, twice', null, { timeout: 10000 });
    await browse.waitForFunction(() => document.body.textContent.includes('Bagh-Chal, twice'), null, { timeout: 10000 });
    await page.waitForTimeout(500);
    const aboutKept = await about.evaluate(() => window.ludothecaTestMark === true);
    const browseReloaded = await browse.evaluate(() => window.ludothecaTestMark === undefined);
    if (!browseReloaded) fail('the browse page changed without reloading');
    else if (!aboutKept) fail('the About page reloaded although the edit did not change it');
    else pass('an edit reloads the pages it changed (the item, then the browse page) and not the About page');

    if (problems.length > 0) for (const p of problems) fail(p);
  } finally {
    await context.close();
    fs.rmSync(profile, { recursive: true, force: true });
    const code = await stopServer(child);
    if (code !== 0) fail('serve exited with ' + code + ' on SIGINT');
    else pass('serve stops on SIGINT with exit code 0');
    fs.rmSync(work, { recursive: true, force: true });
  }
  if (failures > 0) {
    console.error(`${failures} serve browser test failure(s)`);
    process.exit(1);
  }
  console.log('serve browser tests passed');
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
