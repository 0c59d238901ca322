#!/usr/bin/env node
/* The built site in headless Firefox (Debian's firefox-esr), pages opened from file:// (issue 4: "works from
 * file:// in Chromium and Firefox"), driven over WebDriver BiDi by puppeteer-core, which never downloads a
 * browser of its own. scripts/firefox-test builds the site and calls this with its folder.
 *   1. the home page loads; typing "terhuchu" in the search box suggests Terhuchu, ArrowDown and Enter open it;
 *   2. on the Terhuchu page the interactive board becomes ready, and a forward step of a replay moves its ply;
 *   3. a Tchouba page's (sowing) board becomes ready;
 *   4. no console error, no uncaught exception and no resource that failed to load on any of these pages.
 * Firefox reports no network events for file:// over BiDi, so failed loads are caught in the page itself: a
 * script run before each document records the error events of scripts, styles and images (capture phase).
 * Usage: node run.js SITE_DIR */
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { pathToFileURL } = require('url');
const puppeteer = require('puppeteer-core');

const site = path.resolve(process.argv[2] || path.join(__dirname, '..', '..', 'site'));
const FIREFOX = process.env.FIREFOX || '/usr/bin/firefox-esr';
const BOARD = '[data-widget="board"]';
const WAIT = 15000; // every wait of a step
const WHOLE_RUN = 180000; // the whole run, launch to close

const url = (rel) => pathToFileURL(path.join(site, rel)).href;

let passed = 0;
let failed = 0;
async function test(name, fn) {
  const started = Date.now();
  try {
    await fn();
    passed++;
    console.log(`ok   ${name} (${Date.now() - started} ms)`);
  } catch (err) {
    failed++;
    console.log(`FAIL ${name}\n     ${String(err && err.message).split('\n').join('\n     ')}`);
  }
}
function expect(cond, message) {
  if (!cond) throw new Error(message);
}

/* Records, in every document of the page, the resources that failed to load (their error events do not bubble,
 * hence the capture phase on window). */
function recordLoadErrors() {
  window.__ludothecaLoadErrors = [];
  window.addEventListener('error', (e) => {
    const t = e.target;
    if (t && t !== window && t.nodeType === 1) {
      window.__ludothecaLoadErrors.push(`${t.localName} ${t.src || t.href || t.getAttribute('src') || ''}`);
    }
  }, true);
}

(async () => {
  if (!fs.existsSync(path.join(site, 'index.html'))) {
    console.error(`no site at ${site}: build it first`);
    process.exit(2);
  }
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'ludotheca-firefox-'));
  let browser = null;
  const cleanUp = () => fs.rmSync(profile, { recursive: true, force: true });
  // A watchdog: whatever hangs, the browser is killed and the run fails.
  const watchdog = setTimeout(() => {
    console.log(`FAIL the Firefox run did not finish within ${WHOLE_RUN / 1000} s`);
    try { if (browser && browser.process()) browser.process().kill('SIGKILL'); } catch (e) { /* already gone */ }
    cleanUp();
    process.exit(1);
  }, WHOLE_RUN);
  watchdog.unref();

  const started = Date.now();
  try {
    browser = await puppeteer.launch({
      browser: 'firefox',
      executablePath: FIREFOX,
      headless: true,
      userDataDir: profile,
      timeout: 60000,
      protocolTimeout: 60000,
      extraPrefsFirefox: {
        // No network: nothing of Firefox's own goes looking for it.
        'network.connectivity-service.enabled': false,
        'network.captive-portal-service.enabled': false,
      },
    });
    console.log(`     ${await browser.version()} from ${FIREFOX}, launched in ${Date.now() - started} ms`);

    const page = await browser.newPage();
    page.setDefaultTimeout(WAIT);
    page.setDefaultNavigationTimeout(30000);
    const problems = [];
    page.on('console', (msg) => {
      if (msg.type() === 'error') problems.push(`console error on ${(msg.location() && msg.location().url) || page.url()}: ${msg.text()}`);
    });
    page.on('pageerror', (err) => problems.push(`uncaught on ${page.url()}: ${err.message}`));
    page.on('requestfailed', (req) => problems.push(`request failed: ${req.url()} ${(req.failure() || {}).errorText}`));
    await page.evaluateOnNewDocument(recordLoadErrors);
    const visited = [];
    // Read the page's failed loads before leaving it.
    const collectLoadErrors = async () => {
      const here = page.url();
      if (!here.startsWith('file://')) return;
      const document = here.split('#')[0];
      if (!visited.includes(document)) visited.push(document);
      try {
        const errors = await page.evaluate(() => window.__ludothecaLoadErrors || ['(the recorder did not run)']);
        for (const e of errors) {
          const problem = `failed to load on ${here}: ${e}`;
          if (!problems.includes(problem)) problems.push(problem);
        }
      } catch (err) {
        problems.push(`could not read the failed loads of ${here}: ${err.message}`);
      }
    };
    // A step on a page: whatever happens, the failed loads of the page it ends on are read.
    const onPage = (fn) => async () => {
      try {
        await fn();
      } finally {
        await collectLoadErrors();
      }
    };
    const attr = (name) => page.$eval(BOARD, (e, n) => e.getAttribute(n), name);
    const waitReady = () => page.waitForSelector(`${BOARD}[data-ready="true"]`, { timeout: 20000 });

    await test('the home page loads from file://', onPage(async () => {
      await page.goto(url('index.html'), { waitUntil: 'load' });
      expect(page.url().startsWith('file://'), 'not a file:// page: ' + page.url());
      const heading = await page.$eval('h1', (e) => e.textContent.trim());
      expect(heading.length > 0, 'no h1');
      expect(await page.$('#site-search') !== null, 'no search box');
    }));

    await test('typing "terhuchu" suggests Terhuchu; ArrowDown, Enter open the Terhuchu page', onPage(async () => {
      if (!/\/index\.html$/.test(page.url()) || /games\//.test(page.url())) {
        await page.goto(url('index.html'), { waitUntil: 'load' });
      }
      await page.focus('#site-search');
      await page.keyboard.type('terhuchu', { delay: 30 });
      await page.waitForSelector('#site-search-results [role="option"][data-href]', { visible: true });
      expect(await page.$eval('#site-search', (e) => e.getAttribute('aria-expanded')) === 'true',
        'the search box does not say its list is open');
      const options = await page.$$eval('#site-search-results [role="option"]', (l) => l.map((o) => o.textContent));
      expect(options.some((t) => /Terhuchu/.test(t)), 'no Terhuchu among the suggestions: ' + options.join(' | '));
      await page.keyboard.press('ArrowDown');
      const active = await page.$eval('#site-search', (e) => {
        const id = e.getAttribute('aria-activedescendant');
        const o = id && document.getElementById(id);
        return o ? o.textContent : '';
      });
      expect(/Terhuchu/.test(active), 'ArrowDown did not select Terhuchu, got: ' + active);
      await collectLoadErrors(); // the home page's, before leaving it
      await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), page.keyboard.press('Enter')]);
      expect(/games\/terhuchu\/index\.html$/.test(page.url()), 'Enter led to ' + page.url());
      const heading = await page.$eval('h1', (e) => e.textContent.trim());
      expect(heading === 'Terhuchu', 'Enter led to a page headed ' + heading);
    }));

    await test('the Terhuchu board becomes interactive; a forward step of a replay moves the ply', onPage(async () => {
      if (!/games\/terhuchu\/index\.html$/.test(page.url())) {
        await page.goto(url('games/terhuchu/index.html'), { waitUntil: 'load' });
      }
      await waitReady();
      expect(await attr('data-ply') === '0', 'free play starts at ply 0, not ' + await attr('data-ply'));
      expect((await attr('data-position') || '').length > 0, 'no data-position');
      expect(await page.$$eval(`${BOARD} [data-point]`, (l) => l.length) > 0, 'no points drawn');
      await page.select(`${BOARD} select[id$="-record"]`, 'illustrative-ten');
      await page.waitForFunction((sel) => document.querySelector(sel).dataset.record === 'illustrative-ten',
        { timeout: WAIT }, BOARD);
      expect(await attr('data-mode') === 'replay', 'the record is not replayed: ' + await attr('data-mode'));
      expect(await attr('data-ply') === '0', 'the replay starts at ply 0');
      const before = await attr('data-position');
      await page.click(`${BOARD} [data-action="forward"]`);
      await page.waitForFunction((sel) => document.querySelector(sel).dataset.ply === '1', { timeout: WAIT }, BOARD);
      expect(await attr('data-position') !== before, 'the position did not change at ply 1');
      await page.click(`${BOARD} [data-action="forward"]`);
      await page.waitForFunction((sel) => document.querySelector(sel).dataset.ply === '2', { timeout: WAIT }, BOARD);
      await page.click(`${BOARD} [data-action="back"]`);
      await page.waitForFunction((sel) => document.querySelector(sel).dataset.ply === '1', { timeout: WAIT }, BOARD);
    }));

    await test('the Tchouba board (sowing) becomes interactive', onPage(async () => {
      await page.goto(url('games/tchouba/index.html'), { waitUntil: 'load' });
      await waitReady();
      expect(await attr('data-family') === 'sowing', 'family ' + await attr('data-family'));
      expect(await attr('data-ply') === '0', 'ply ' + await attr('data-ply'));
      expect((await attr('data-position') || '').length > 0, 'no data-position');
      const holes = await page.$$eval(`${BOARD} [data-point]`, (l) => l.length);
      expect(holes > 0, 'no holes drawn');
    }));

    await test('no console error, no uncaught exception, no failed load', async () => {
      expect(visited.length >= 3, 'only ' + visited.length + ' pages were read: ' + visited.join(', '));
      expect(problems.length === 0, problems.join('\n'));
    });
    console.log(`     pages read: ${visited.map((u) => path.relative(site, decodeURIComponent(new URL(u).pathname))).join(', ')}`);
  } catch (err) {
    failed++;
    console.log(`FAIL ${String(err && err.stack || err)}`);
  } finally {
    if (browser) {
      try {
        await Promise.race([browser.close(), new Promise((_, reject) => setTimeout(() => reject(new Error('close timed out')), 15000))]);
      } catch (err) {
        console.log('     closing Firefox failed (' + err.message + '); killing it');
        try { if (browser.process()) browser.process().kill('SIGKILL'); } catch (e) { /* already gone */ }
      }
    }
    cleanUp();
    clearTimeout(watchdog);
  }
  console.log(`firefox: ${passed} passed, ${failed} failed (${Date.now() - started} ms)`);
  process.exit(failed > 0 ? 1 : 0);
})().catch((err) => {
  console.error(err);
  process.exit(1);
});
