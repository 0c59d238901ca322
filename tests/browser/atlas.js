#!/usr/bin/env node
/* The map and the timeline of a built site, in headless Chromium opened from file:// (scripts/browser-test
 * builds the site and calls this with its folder):
 *   - the map has a marker for Kathmandu Valley, a place whose record gives coordinates, which is a link to the
 *     place's page and is reached with the Tab key; the list beside the map names it too;
 *   - the timeline lists Tchouba, a dated game, and its link leads to the game's page;
 *   - a marker for several places (Kohima and Zunheboto) opens, by keyboard or click, a list of every place it
 *     stands for below its map, each a link to its page, and shuts with Escape or Close, back on the marker;
 *   - the filters work on both: `kind=evidence` leaves only the places and items with evidence, and
 *     `#kind=board` in the URL leaves none on the timeline;
 *   - axe finds no violation at all on either page, light and dark, neither scrolls sideways at 390 px, and
 *     no page logs a console error or fails a request.
 * Usage: node atlas.js SITE_DIR */
'use strict';
const fs = require('fs');
const path = require('path');
const { pathToFileURL } = require('url');
const { launch } = require('./chromium');

const site = path.resolve(process.argv[2] || path.join(__dirname, '..', '..', 'site'));
let failures = 0;
function fail(message) {
  failures++;
  console.error('FAIL ' + message);
}
function pass(message) {
  console.log('ok   ' + message);
}
function check(ok, message) {
  if (ok) pass(message);
  else fail(message);
}
const url = (rel) => pathToFileURL(path.join(site, rel)).href;

async function axeCheck(page, label) {
  const source = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  await page.addScriptTag({ content: source });
  const result = await page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ['violations'], preload: false });
    return r.violations.map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')})`);
  });
  check(result.length === 0, `axe ${label}: ${result.length ? result.join('; ') : 'no violation'}`);
}

async function noSidewaysScroll(page, label) {
  await page.setViewportSize({ width: 390, height: 844 });
  const [scroll, client] = await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
  check(scroll <= client, `${label} at 390 px: ${scroll <= client ? 'no sideways scrolling' : 'scrolls sideways, ' + scroll + ' px wide'}`);
  await page.setViewportSize({ width: 1280, height: 900 });
}

/* How many of the given elements are shown (not hidden by a filter). */
async function shown(page, selector) {
  return page.$$eval(selector, (els) => els.filter((e) => !e.closest('[hidden]')).length);
}

async function map(page) {
  await page.goto(url('map/index.html'));
  const marker = page.locator('svg#map-places a[href="../places/kathmandu-valley/index.html"]');
  check((await marker.count()) === 1, 'the map has a marker for Kathmandu Valley');
  check(/Kathmandu Valley: 1 item/.test((await marker.getAttribute('aria-label')) || ''), 'the marker is named in words');
  check((await page.locator('#place-kathmandu-valley a').count()) === 1, 'the list beside the map names Kathmandu Valley');
  // Keyboard: Tab reaches the marker.
  await page.focus('[data-clear]');
  let reached = false;
  for (let i = 0; i < 40 && !reached; i++) {
    await page.keyboard.press('Tab');
    reached = await page.evaluate(() => {
      const a = document.activeElement;
      return !!a && a.getAttribute('href') === '../places/kathmandu-valley/index.html' && !!a.closest('svg');
    });
  }
  check(reached, 'the Tab key reaches the marker');
  if (reached) {
    await Promise.all([page.waitForURL(/kathmandu-valley\/index\.html$/, { timeout: 10000 }).catch(() => {}), page.keyboard.press('Enter')]);
    check(/places\/kathmandu-valley\/index\.html$/.test(page.url()), 'Enter on the marker opens the place page');
    await page.goto(url('map/index.html'));
  }
  const places = await shown(page, '.atlas-places li');
  const markers = await shown(page, 'svg#map-places .marks a');
  // Filtering: evidence is at Zunheboto only (drawn with Kohima as one marker).
  await page.check('input[name="kind"][value="evidence"]');
  const placesNow = await shown(page, '.atlas-places li');
  const markersNow = await shown(page, 'svg#map-places .marks a');
  check(placesNow >= 1 && placesNow < places, `filtering by kind leaves ${placesNow} of ${places} places in the list`);
  check(markersNow >= 1 && markersNow < markers, `and ${markersNow} of ${markers} markers on the map`);
  check((await shown(page, '#place-kathmandu-valley')) === 0, 'Kathmandu Valley (no evidence) is hidden');
  check(/kind=evidence/.test(page.url()), 'the filter is kept in the URL');
  check(/of \d+ shown/.test(await page.textContent('[data-status]')), 'the status counts the places shown');
  await page.click('[data-clear]');
  check((await shown(page, '.atlas-places li')) === places, 'clearing the filters shows every place again');
  await cluster(page);
  await axeCheck(page, 'map');
  await noSidewaysScroll(page, 'the map');
  // A place's page links to its entry in the list: the entry shows (a hash that is no filter hides nothing).
  await page.goto(url('map/index.html') + '#place-kathmandu-valley');
  await page.reload();
  check((await shown(page, '#place-kathmandu-valley')) === 1 && (await shown(page, '.atlas-places li')) === places,
    'map/index.html#place-kathmandu-valley shows the entry and every place');
}

/* A marker for several places: Kohima and Zunheboto (Nagaland) share one. Opened by keyboard, it lists both
   places below its map, as links to their pages; Escape shuts the list and returns to the marker; a click opens
   it again, on the world map too, and a place in the list leads to its page. */
async function cluster(page) {
  const selector = 'svg#map-places a[data-places][aria-label*="Zunheboto"]';
  const marker = page.locator(selector);
  check((await marker.count()) === 1, 'the map has one marker for Kohima and Zunheboto');
  if ((await marker.count()) !== 1) return;
  check((await marker.getAttribute('role')) === 'button' && (await marker.getAttribute('aria-expanded')) === 'false',
    'it is a button that says it is shut');
  const panel = page.locator('#atlas-cluster');
  check(await panel.isHidden(), 'no list of places is shown before a marker is opened');
  await page.focus('[data-clear]');
  let reached = false;
  for (let i = 0; i < 40 && !reached; i++) {
    await page.keyboard.press('Tab');
    reached = await page.evaluate((sel) => !!document.activeElement && document.activeElement.matches(sel), selector);
  }
  check(reached, 'the Tab key reaches the marker for several places');
  await page.keyboard.press('Enter');
  check(await panel.isVisible(), 'Enter opens the list of its places');
  if (!(await panel.isVisible())) return;
  const listed = await panel.locator('li a').evaluateAll((as) => as.map((a) => [a.textContent, a.getAttribute('href')]));
  check(JSON.stringify(listed) === JSON.stringify([
    ['Kohima, Nagaland', '../places/kohima-nagaland/index.html'],
    ['Zunheboto, Nagaland', '../places/zunheboto-nagaland/index.html'],
  ]), `the list names every place of the marker, each a link to its page: ${JSON.stringify(listed)}`);
  const heading = await panel.locator('h2').textContent();
  check(/^2 places close together, 3 items$/.test(heading), `it is headed in words: ${heading}`);
  check(await page.evaluate(() => document.activeElement && document.activeElement.id === 'atlas-cluster-title'),
    'the focus moves to the list\'s heading, which a screen reader reads');
  check((await marker.getAttribute('aria-expanded')) === 'true', 'the marker says it is open');
  check(/map\/index\.html$/.test(page.url()), 'the page stays where it is (no jump to the first place)');
  await axeCheck(page, 'map with a list of places open');
  await page.keyboard.press('Tab');
  check(await page.evaluate(() => document.activeElement && document.activeElement.closest('#atlas-cluster') !== null
    && document.activeElement.tagName === 'A'), 'the Tab key goes on into the list');
  await page.keyboard.press('Escape');
  check(await panel.isHidden(), 'Escape shuts the list');
  check(await page.evaluate((sel) => document.activeElement && document.activeElement.matches(sel), selector),
    'and the focus is back on the marker');
  // On the world map, folded below, a click opens the same places below that map.
  await page.click('.atlas-more summary');
  const world = page.locator('svg#map-world a[data-places][aria-label*="Zunheboto"]');
  if ((await world.count()) === 1) {
    await world.click();
    check(await panel.isVisible() && (await panel.locator('li a').count()) === 2, 'a click on the world map\'s marker lists both places');
    check(await page.evaluate(() => document.getElementById('atlas-cluster').previousElementSibling.querySelector('#map-world') !== null),
      'below the world map');
    await page.click('#atlas-cluster button');
    check(await panel.isHidden(), 'the Close button shuts it');
  } else {
    fail('the world map has a marker for Kohima and Zunheboto');
  }
  // A filter that hides the marker (no sowing game in Nagaland) shuts its list.
  await marker.click();
  await page.check('input[name="family"][value="sowing"]');
  check(await panel.isHidden(), 'a filter that hides the marker shuts its list');
  await page.click('[data-clear]');
  await marker.click();
  await Promise.all([page.waitForURL(/zunheboto-nagaland\/index\.html$/, { timeout: 10000 }).catch(() => {}),
    panel.locator('a', { hasText: 'Zunheboto' }).click()]);
  check(/places\/zunheboto-nagaland\/index\.html$/.test(page.url()), 'a place in the list opens its page');
  await page.goto(url('map/index.html'));
}

async function timeline(page) {
  await page.goto(url('timeline/index.html'));
  const link = page.locator('.timeline a[href="../games/tchouba/index.html"]');
  check((await link.count()) === 1, 'the timeline lists Tchouba (dated 1898/2010)');
  const row = await link.evaluate((a) => a.closest('li').textContent.replace(/\s+/g, ' '));
  check(/1898–2010/.test(row), `its row gives its years: ${row.trim().slice(0, 80)}`);
  const years = await page.$$eval('.timeline-year', (els) => els.map((e) => parseInt(e.textContent, 10)));
  check(years.length > 1 && years.every((y, i) => i === 0 || years[i - 1] <= y), `items are in order of year (${years.join(', ')})`);
  const all = await shown(page, '.timeline li');
  await page.goto(url('timeline/index.html') + '#kind=evidence');
  await page.reload();
  const evidence = await shown(page, '.timeline li');
  check(evidence >= 1 && evidence < all, `#kind=evidence in the URL leaves ${evidence} of ${all} items`);
  check((await shown(page, '.timeline a[href="../games/tchouba/index.html"]')) === 0, 'and hides the game');
  await page.goto(url('timeline/index.html') + '#kind=board');
  await page.reload();
  check((await shown(page, '.timeline li')) === 0, '#kind=board leaves none (no board is dated)');
  await page.goto(url('timeline/index.html'));
  await page.reload();
  await Promise.all([page.waitForURL(/tchouba\/index\.html$/, { timeout: 10000 }).catch(() => {}), link.click()]);
  check(/games\/tchouba\/index\.html$/.test(page.url()), 'the timeline entry opens the game page');
  await page.goto(url('timeline/index.html'));
  await axeCheck(page, 'timeline');
  await noSidewaysScroll(page, 'the timeline');
}

(async () => {
  if (!fs.existsSync(path.join(site, 'map', 'index.html'))) {
    console.error(`no map in ${site}: build the site first`);
    process.exit(2);
  }
  const { context, profile } = await launch();
  const problems = [];
  try {
    const page = context.pages()[0] || (await context.newPage());
    page.on('console', (msg) => {
      if (msg.type() === 'error') problems.push('console error: ' + msg.text());
    });
    page.on('pageerror', (err) => problems.push('uncaught: ' + err.message));
    page.on('requestfailed', (req) => problems.push('request failed: ' + req.url()));
    await map(page);
    await timeline(page);
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto(url('map/index.html'));
    await axeCheck(page, 'map, dark theme');
    await page.goto(url('timeline/index.html'));
    await axeCheck(page, 'timeline, dark theme');
  } finally {
    await context.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
  check(problems.length === 0, problems.length ? problems.join('; ') : 'no console error and no failed request');
  if (failures > 0) {
    console.error(`${failures} atlas test failure(s)`);
    process.exit(1);
  }
  console.log('atlas browser tests passed');
})().catch((err) => {
  console.error(err);
  process.exit(1);
});
