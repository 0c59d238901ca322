#!/usr/bin/env node
/* Browser tests of a built site (scripts/browser-test builds it and calls this with its folder):
 *   1. the Nu HTML Checker (vnu-jar, Java) reports no error on any page;
 *   2. headless Chromium (Debian's, driven by playwright-core) opens index.html from file://, types "terhuchu"
 *      in the search box, which loads the index manifest and only a few of its shards, and reaches the Terhuchu
 *      page with the arrow keys and Enter, with no console error and no failed request; browse filters come
 *      from the URL;
 *   3. axe-core finds no serious or critical violation on the home page, a game page, browse, and the search
 *      box showing results (and the search results page), and none at all on game pages with the board's
 *      labels shown, light and dark; game pages at 390 px do not scroll sideways; the puzzles page passes axe,
 *      does not scroll sideways at 390 px, and opens each puzzle on its board without showing its solution; the
 *      board page with a picture loads it, does not scroll sideways at 390 px and passes axe without a violation;
 *      every board of a game or board page fits a phone 360 or 390 px wide, legible and easy to touch; on a
 *      phone the filter groups start closed but for one the address sets; no page scrolls sideways at 320 or
 *      360 px; axe finds no violation at all on any page, light on a laptop and dark on a phone;
 *   4. given a second site built with small pages (PAGED_DIR), the same checks of its paged lists: the page
 *      navigation, the filters of one page, and the way from a filter in the URL to the list of every item
 *      with that value.
 * Usage: node run.js SITE_DIR [PAGED_DIR] */
'use strict';
const { spawnSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { pathToFileURL } = require('url');
const { launch } = require('./chromium');

const site = path.resolve(process.argv[2] || path.join(__dirname, '..', '..', 'site'));
const paged = process.argv[3] ? path.resolve(process.argv[3]) : null;
let failures = 0;

function fail(message) {
  failures++;
  console.error('FAIL ' + message);
}
function pass(message) {
  console.log('ok   ' + message);
}

function validateHtml() {
  const jar = require('vnu-jar');
  const dirs = paged ? [site, paged] : [site];
  const result = spawnSync('java', ['-jar', jar, '--errors-only', '--format', 'json', '--skip-non-html', ...dirs], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.error) {
    fail('vnu could not run: ' + result.error.message);
    return;
  }
  let messages = [];
  try {
    messages = JSON.parse(result.stderr || '{"messages":[]}').messages;
  } catch (e) {
    fail('vnu output is not JSON: ' + (result.stderr || '').slice(0, 500));
    return;
  }
  const errors = messages.filter((m) => m.type === 'error' || m.subType === 'fatal');
  const pages = dirs.reduce((n, d) => n + countPages(d), 0);
  if (errors.length > 0) {
    for (const e of errors.slice(0, 40)) {
      fail(`vnu: ${path.relative(path.dirname(site), decodeURIComponent(new URL(e.url).pathname))}:${e.lastLine}: ${e.message}`);
    }
  } else {
    pass(`vnu: no errors in ${pages} pages`);
  }
}

function countPages(dir) {
  let n = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) n += countPages(p);
    else if (entry.name.endsWith('.html')) n++;
  }
  return n;
}

function url(rel, dir) {
  return pathToFileURL(path.join(dir || site, rel)).href;
}

/* Console errors, uncaught exceptions and failed requests of a page, collected as they happen. */
function watch(page, problems) {
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push('console error: ' + msg.text());
  });
  page.on('pageerror', (err) => problems.push('uncaught: ' + err.message));
  // A picture the browser stopped loading because the test went on to another page (net::ERR_ABORTED: a lazy
  // diagram scrolled into view by the click) is not a fault of the site; a missing or unreadable file fails
  // with another error, and any other kind of request dropped still counts.
  page.on('requestfailed', (req) => {
    const error = (req.failure() || {}).errorText;
    if (error === 'net::ERR_ABORTED' && req.resourceType() === 'image') return;
    problems.push('request failed: ' + req.url() + ' ' + error);
  });
}

async function axeCheck(page, label, strict) {
  const source = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  await page.addScriptTag({ content: source });
  const result = await page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ['violations'], preload: false });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => n.target.join(' ')).slice(0, 3) }));
  });
  // Strict: not even a minor violation (where the page had none before a change to it).
  const bad = result.filter((v) => strict || v.impact === 'serious' || v.impact === 'critical');
  if (bad.length > 0) {
    for (const v of bad) fail(`axe ${label}: ${v.impact} ${v.id}: ${v.help} (${v.nodes.join(', ')})`);
  } else {
    const minor = result.map((v) => `${v.impact} ${v.id}`).join(', ');
    pass(`axe ${label}: no ${strict ? '' : 'serious or critical '}violation${minor ? ' (minor: ' + minor + ')' : ''}`);
  }
}

async function browserTests() {
  const { context, profile } = await launch();
  try {
    const page = context.pages()[0] || (await context.newPage());
    const problems = [];
    watch(page, problems);

    // Search by keyboard, from disk.
    await page.goto(url('index.html'));
    await axeCheck(page, 'home');
    const box = page.getByRole('combobox', { name: 'Search the archive' });
    await box.focus();
    await page.keyboard.type('terhuchu', { delay: 30 });
    await page.waitForSelector('#site-search-results [role="option"][data-href]');
    const expanded = await box.getAttribute('aria-expanded');
    if (expanded !== 'true') fail('the search box does not say its list is open');
    await axeCheck(page, 'search suggestions');
    // The index is loaded in parts: the manifest, then only the shards this query needs.
    const loaded = await page.evaluate(() =>
      Array.from(document.querySelectorAll('script[src]'))
        .map((s) => s.getAttribute('src'))
        .filter((src) => /search-index/.test(src)));
    const shards = loaded.filter((src) => /search-index\//.test(src));
    const all = fs.readdirSync(path.join(site, 'search-index'));
    if (!loaded.some((src) => /(^|\/)search-index\.js$/.test(src))) fail('the search manifest was not loaded: ' + loaded.join(' '));
    if (shards.length === 0 || shards.length >= all.length / 4) {
      fail(`typing "terhuchu" loaded ${shards.length} of ${all.length} index parts: ${shards.join(' ')}`);
    } else if (!shards.some((s) => /\/w-t/.test(s)) || !shards.some((s) => /\/d-\d+\.js$/.test(s))) {
      fail('typing "terhuchu" did not load its word shard and a document chunk: ' + shards.join(' '));
    } else {
      pass(`typing "terhuchu" loaded ${shards.length} of ${all.length} index parts (${shards.join(', ')})`);
    }
    await page.keyboard.press('ArrowDown');
    const activeId = await box.getAttribute('aria-activedescendant');
    const activeText = activeId ? await page.locator('#' + activeId).innerText() : '';
    if (!/Terhuchu/.test(activeText)) fail('ArrowDown did not select Terhuchu, got: ' + activeText);
    await Promise.all([page.waitForURL(/games\/terhuchu\/index\.html$/), page.keyboard.press('Enter')]);
    const heading = await page.locator('h1').innerText();
    if (heading.trim() !== 'Terhuchu') fail('Enter led to a page headed ' + heading);
    else pass('typing "terhuchu" and pressing ArrowDown, Enter opens the Terhuchu page');
    await axeCheck(page, 'game page (Terhuchu)');

    // The board's labels toggle turns the point names on: no violation at all, in either palette (the choice is
    // kept in the page's storage, so Tchouba's hole numbers and the dark theme below are checked with it too).
    await page.waitForSelector('[data-widget="board"][data-ready="true"]');
    await page.getByRole('button', { name: 'Show point names' }).click();
    if ((await page.locator('[data-widget="board"] .lt-labels text:visible').count()) < 25) fail('the point names are not shown');
    await axeCheck(page, 'game page, point names shown', true);

    // Diacritics are folded both ways: "sumi" finds "Sümi", "terhuchu" shows the alternative "Terhüchü".
    const again = page.getByRole('combobox', { name: 'Search the archive' });
    await again.fill('');
    await again.focus();
    await page.keyboard.type('sumi naga', { delay: 20 });
    await page.waitForSelector('#site-search-results [role="option"][data-href]');
    const first = await page.locator('#site-search-results [role="option"]').first().innerText();
    if (!/Sümi/.test(first)) fail('"sumi naga" did not find the Sümi game first, got: ' + first);
    else pass('"sumi naga" finds "' + first.split('\n')[0].trim() + '"');
    await again.fill('');
    await page.keyboard.type('terhüchü', { delay: 20 });
    await page.waitForSelector('#site-search-results [role="option"][data-href]');
    const accented = await page.locator('#site-search-results [role="option"]').first().innerText();
    if (!/Terhuchu/.test(accented)) fail('"terhüchü" did not find Terhuchu, got: ' + accented);
    else pass('"terhüchü" finds Terhuchu');
    // A word of an Indic script is found by its Latin spelling too: Mogol Putt'han's Bengali title
    // মোগল পাঠান reads "mogal pathan", a spelling none of its Latin titles has.
    await again.fill('');
    await page.keyboard.type('mogal', { delay: 20 });
    await page.waitForSelector('#site-search-results [role="option"][data-href]');
    const romanised = await page.locator('#site-search-results [role="option"]').first().innerText();
    if (!/Mogol Putt.han/.test(romanised)) fail('"mogal" did not find Mogol Putt\'han by its Bengali title, got: ' + romanised);
    else if (!/also মোগল পাঠান/.test(romanised)) fail('"mogal" found Mogol Putt\'han without saying by which name, got: ' + romanised);
    else pass('"mogal" finds Mogol Putt\'han, "also মোগল পাঠান"');
    await page.keyboard.press('Escape');

    await page.goto(url('games/tchouba/index.html') + '#ruleset=4x40');
    await page.waitForSelector('[data-widget="board"][data-ready="true"]');
    if ((await page.locator('[data-widget="board"] .lt-labels text:visible').count()) < 160) fail('the hole numbers are not shown');
    await axeCheck(page, 'game page (Tchouba, sowing), hole numbers shown', true);

    // A phone's width: the board's controls (the labels toggle among them) wrap; nothing scrolls sideways.
    await page.setViewportSize({ width: 390, height: 844 });
    for (const item of ['terhuchu', 'tchouba', 'bagh-chal']) {
      await page.goto(url(`games/${item}/index.html`));
      await page.waitForSelector('[data-widget="board"][data-ready="true"]');
      const [scroll, client] = await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
      if (scroll > client) fail(`${item} at 390 px scrolls sideways: ${scroll} px wide`);
      else pass(`${item} at 390 px: no sideways scrolling`);
    }
    // A board page with a picture: the picture loads (lazily, once scrolled to), fits a phone's width, and the
    // page passes axe.
    await page.goto(url('boards/kherjarala-rock-board/index.html'));
    await page.locator('#images img').first().scrollIntoViewIfNeeded();
    await page.waitForFunction(() => {
      const img = document.querySelector('#images img');
      return img && img.complete && img.naturalWidth > 0;
    });
    const [pictured, room] = await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
    if (pictured > room) fail(`the board page with a picture at 390 px scrolls sideways: ${pictured} px wide`);
    else pass('the board page with a picture at 390 px: the picture loads, no sideways scrolling');
    await axeCheck(page, 'board page with a picture', true);
    await page.setViewportSize({ width: 1280, height: 720 });

    // Browse: the filter state comes from the URL.
    await page.goto(url('browse/index.html') + '#kind=board');
    await page.waitForFunction(() => document.querySelector('[data-status]').textContent.includes('shown'));
    const visible = await page.locator('table.browse tbody tr:not([hidden])').count();
    const total = await page.locator('table.browse tbody tr').count();
    const checked = await page.locator('input[name="kind"][value="board"]').isChecked();
    if (visible < 1 || visible >= total || !checked) fail(`browse #kind=board shows ${visible} of ${total} rows (checkbox ${checked})`);
    else pass(`browse filter from the URL: ${visible} of ${total} rows`);
    await page.locator('input[name="kind"][value="game"]').check();
    if (!/kind=game/.test(page.url())) fail('checking a filter does not update the URL: ' + page.url());
    await axeCheck(page, 'browse');

    // The search results page.
    await page.goto(url('search/index.html') + '?q=naga');
    await page.waitForSelector('[data-search-list] li');
    const counted = await page.locator('[data-search-count]').innerText();
    const listed = await page.locator('[data-search-list] li').count();
    const more = await page.locator('[data-search-more]').isVisible();
    if (!new RegExp('^' + listed + ' results? for').test(counted) || more) {
      fail(`the results page for "naga" says "${counted}", lists ${listed}, more button ${more ? 'shown' : 'hidden'}`);
    } else {
      pass(`the results page for "naga": ${counted}, all listed`);
    }
    await axeCheck(page, 'search results page');

    // The dark theme (from the system setting) keeps its contrast.
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto(url('games/terhuchu/index.html'));
    await page.waitForSelector('[data-widget="board"][data-labels="on"]');
    await axeCheck(page, 'game page, dark theme, point names shown', true);
    await page.goto(url('browse/index.html'));
    await axeCheck(page, 'browse, dark theme');
    await page.emulateMedia({ colorScheme: 'light' });

    await page.goto(url('rules/index.html'));
    await axeCheck(page, 'rules');
    await page.goto(url('variants/index.html'));
    await axeCheck(page, 'variants');

    await puzzleTests(page);
    await seedPuzzleTests(page);
    await viewportTests(page);
    await phoneFitTests(page);
    await phoneFilterTests(page);
    await everyPageOnAPhone(page);
    await axeEveryPage(page);

    if (paged) await pagedTests(page);

    if (problems.length > 0) for (const p of problems) fail(p);
    else pass('no console error and no failed request');
  } finally {
    await context.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
}

/* The puzzles page: accessible, no sideways scrolling on a phone, and each link opens its puzzle on the board,
 * in the puzzle's ruleset, with the question shown and neither the solution's moves nor its comments. */
async function puzzleTests(page) {
  await page.goto(url('puzzles/index.html'));
  await axeCheck(page, 'puzzles', true);
  await page.setViewportSize({ width: 390, height: 844 });
  const [scroll, client] = await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
  if (scroll > client) fail(`the puzzles page at 390 px scrolls sideways: ${scroll} px wide`);
  else pass('the puzzles page at 390 px: no sideways scrolling');
  await page.setViewportSize({ width: 1280, height: 720 });
  // What each puzzle's solution says first: none of it may be on the page before the puzzle is solved.
  const solutions = {
    'puzzle-last-tiger': ['c2-c3', 'Both tigers were threatening'],
    'puzzle-4x8-constructed': ['2(x2+pit10)', "Hole 2's two seeds"],
    'puzzle-capturing-race': ['28(x2+pit8&9)', 'Two seeds into 22 and 23', 'arrive a move later'],
    'puzzle-protraction-strategy': ['30(x1+pit5&8)', 'Two seeds into 24 and 25', 'single seeds left'],
  };
  // Tchouba opens on another ruleset: the link must switch the board to the puzzle's.
  const rulesets = { 'puzzle-last-tiger': 'common', 'puzzle-4x8-constructed': '4x8', 'puzzle-capturing-race': '4x40', 'puzzle-protraction-strategy': '4x40' };
  const links = await page.$$eval('ol.puzzles a[href*="#record="]', (as) => as.map((a) => [a.getAttribute('href'), a.textContent]));
  if (links.length !== Object.keys(solutions).length) fail(`the puzzles page links ${links.length} puzzles`);
  for (const [href, text] of links) {
    const id = href.split('#record=')[1];
    await page.goto(url('puzzles/index.html'));
    await Promise.all([page.waitForURL(/games\/[^/]+\/index\.html#record=/), page.click(`ol.puzzles a[href="${href}"]`)]);
    await page.waitForSelector('[data-widget="board"][data-ready="true"]');
    const board = await page.$eval('[data-widget="board"]', (b) => ({ ...b.dataset }));
    const question = await page.locator('[data-widget="board"] .lt-question').innerText();
    const shown = await page.locator('main').innerText();
    const leaked = (solutions[id] || []).filter((s) => shown.includes(s));
    const ruleset = board.ruleset === rulesets[id];
    if (board.mode !== 'puzzle' || board.record !== id || !question.trim() || leaked.length || !ruleset) {
      fail(`${text}: mode ${board.mode}, record ${board.record}, ruleset ${board.ruleset}, question "${question}", shown: ${leaked.join(', ')}`);
    } else {
      pass(`${text}: opens the puzzle (ruleset ${board.ruleset}) with its question and without its solution`);
    }
  }
}

/* The board's data attributes, read at once. */
function boardState(page) {
  return page.$eval('[data-widget="board"]', (b) => ({ ...b.dataset }));
}

/* Plays North's move of a line written in the Tchouba article's notation by clicking, as a visitor would: the
 * hole, then each extra hole named after "pit"; waits for the sowing and for the record's reply (ply `reply`). */
async function playNorth(page, move, reply) {
  const [, hole, pits] = /^(\d+)(?:\(x\d\+pit([\d&]+)\))?/.exec(move);
  await page.click(`[data-widget="board"] [data-point="N${hole}"]`);
  for (const pit of pits ? pits.split('&') : []) {
    await page.waitForSelector(`[data-widget="board"] [data-point="S${pit}"].lt-target`);
    await page.click(`[data-widget="board"] [data-point="S${pit}"]`);
  }
  await page.waitForFunction((p) => {
    const b = document.querySelector('[data-widget="board"]').dataset;
    return !b.animating && !b.refused && (b.solved === 'true' || (+b.ply >= p && b.toMove === '1'));
  }, reply);
}

/* The article's problems on the board: the question is shown and the answer is not, the wrong first move is
 * played out to its refutation (the record's Wrong line), and the correct line, clicked as the article writes
 * it, solves the puzzle. */
async function seedPuzzleTests(page) {
  // Each problem: its record, the wrong first move, the outcome its wrong line reaches (the article's line for
  // problem 2 stops before the game ends), and the correct line's North moves as the article writes them.
  const problems = [
    ['puzzle-capturing-race', '23', '1-0', ['21', '24', '25', '28(x2+pit8&9)']],
    ['puzzle-protraction-strategy', '21', '', ['23', '24', '21', '30(x1+pit5&8)', '25(x1+pit6&13)']],
  ];
  // The start of each comment of the solution: none may show before the puzzle is solved.
  const comments = {
    'puzzle-capturing-race': ['Two seeds into 22 and 23', 'Into 25 and 26; 26 held one', 'Into 26 and 27; 27 held one', 'Into 29 and 30'],
    'puzzle-protraction-strategy': ['Two seeds into 24 and 25', 'Into 25 and 26; 26 was empty', 'emptied by North', 'Into 31 and 32'],
  };
  // Start on another record of the same page: going to each problem then changes only the address's hash, and
  // the board must follow it without the page loading again.
  await page.goto(url('games/tchouba/index.html') + '#record=puzzle-4x8-constructed');
  await page.waitForSelector('[data-widget="board"][data-ready="true"]');
  for (const [id, wrong, wrongOutcome, right] of problems) {
    await page.goto(url('games/tchouba/index.html') + '#record=' + id);
    await page.waitForSelector('[data-widget="board"][data-ready="true"]');
    const shownRecord = (await boardState(page)).record;
    if (shownRecord !== id) fail(`${id}: the board stayed on ${shownRecord} when the address changed to it`);
    const question = await page.locator('[data-widget="board"] .lt-question').innerText();
    const shown = await page.locator('main').innerText();
    const leaked = right.filter((m) => /\(/.test(m) && shown.includes(m));
    if (!/North to move/.test(question) || leaked.length) fail(`${id}: question "${question}", shown before solving: ${leaked.join(', ')}`);
    else pass(`${id}: the question is shown, the solution's captures are not`);
    // Every comment the board shows while it plays the wrong line out, step by step.
    await page.evaluate(() => {
      const c = document.querySelector('[data-widget="board"] .lt-comment');
      window.shownComments = [];
      new MutationObserver(() => window.shownComments.push(c.textContent)).observe(c, { childList: true, characterData: true, subtree: true });
    });
    await page.click(`[data-widget="board"] [data-point="N${wrong}"]`);
    await page.waitForFunction(() => /refuted/.test(document.querySelector('[data-widget="board"]').dataset.refused || ''));
    const refuted = await boardState(page);
    const during = (await page.locator('main').innerText()) + (await page.evaluate(() => window.shownComments.join(' | ')));
    const told = (comments[id] || []).filter((c) => during.includes(c));
    if (told.length) fail(`${id}: the refutation shows the solution's comments: ${told.join(', ')}`);
    if ((refuted.outcome || '') !== wrongOutcome || refuted.solved !== 'false') fail(`${id}: after ${wrong}, outcome ${refuted.outcome}, solved ${refuted.solved}`);
    else pass(`${id}: ${wrong} is refuted on the board: ${refuted.refused}`);
    for (const [i, move] of right.entries()) await playNorth(page, move, 2 * i + 2);
    const done = await boardState(page);
    if (done.solved !== 'true' || done.outcome !== '0-1') fail(`${id}: the article's line leaves solved ${done.solved}, outcome ${done.outcome}`);
    else pass(`${id}: solved by the article's line, ${right.join(' ')}, clicked on the board`);
  }
}

/* Every kind of page at a phone's size and a laptop's: nothing scrolls sideways; where a page has a board, its
 * controls lie inside the viewport's width, and 4 x 40 Tchouba (160 holes) draws its seed counts 11 px high or
 * more and shows its 160 hole numbers when they are switched on. */
const PAGE_KINDS = [
  ['home', 'index.html'], ['browse', 'browse/index.html'], ['game (sowing)', 'games/tchouba/index.html'],
  ['game (lines)', 'games/terhuchu/index.html'], ['game, 4 x 40 board', 'games/tchouba/index.html#ruleset=4x40'],
  ['board', 'boards/kherjarala-rock-board/index.html'], ['evidence', 'evidence/hutton-1921-sema-hunt/index.html'],
  ['tags', 'tags/index.html'], ['tag', 'tags/mancala/index.html'], ['places', 'places/index.html'],
  ['place', 'places/mozambique/index.html'], ['people', 'people/index.html'],
  ['person', 'people/henri-alexandre-junod/index.html'], ['sources', 'sources/index.html'],
  ['source', 'sources/mancala-world-tchouba/index.html'], ['rules', 'rules/index.html'],
  ['search', 'search/index.html?q=tchouba'], ['puzzles', 'puzzles/index.html'], ['variants', 'variants/index.html'],
  ['about', 'about/index.html'], ['uncatalogued', 'uncatalogued/index.html'],
];

async function viewportTests(page) {
  for (const [width, height] of [[360, 740], [390, 844], [1280, 800]]) {
    await page.setViewportSize({ width, height });
    for (const [kind, rel] of PAGE_KINDS) {
      if (!fs.existsSync(path.join(site, rel.replace(/[#?].*$/, '')))) { fail(`no ${kind} page: ${rel}`); continue; }
      await page.goto(url(rel.replace(/[#?].*$/, '')) + rel.replace(/^[^#?]*/, ''));
      const board = (await page.locator('[data-widget-slot="board"] script.board-data').count()) > 0;
      if (board) await page.waitForSelector('[data-widget="board"][data-ready="true"]');
      const found = await page.evaluate(() => {
        const doc = document.documentElement, out = [];
        if (doc.scrollWidth > doc.clientWidth) out.push(`the page is ${doc.scrollWidth} px wide`);
        // Static diagrams too keep 65% of their scale or more (seed counts of 11 px), scrolling in their box.
        for (const img of document.querySelectorAll('img.board')) {
          const r = img.getBoundingClientRect();
          const full = +img.getAttribute('width');
          if (r.width && r.width < 0.649 * full) out.push(`a diagram drawn at ${Math.round(r.width)} of ${full} px`);
        }
        for (const c of document.querySelectorAll('[data-widget="board"] :is(button, select, input)')) {
          const r = c.getBoundingClientRect();
          if (r.width && (r.left < 0 || r.right > doc.clientWidth)) out.push(`${c.getAttribute('data-action') || c.className || c.id} at ${Math.round(r.left)}-${Math.round(r.right)} px`);
        }
        return out;
      });
      if (found.length) fail(`${kind} at ${width}x${height}: ${found.join('; ')}`);
      else pass(`${kind} at ${width}x${height}: no sideways scrolling${board ? ', the board\'s controls in view' : ''}`);
      if (!/4x40/.test(rel)) continue;
      const sizes = await page.$$eval('[data-widget="board"] svg.board [data-point] text', (ts) =>
        ts.map((t) => parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a));
      const smallest = Math.min(...sizes);
      if (sizes.length !== 160 || !(smallest >= 11)) fail(`4 x 40 at ${width}x${height}: ${sizes.length} counts, the smallest ${smallest.toFixed(1)} px`);
      else pass(`4 x 40 at ${width}x${height}: 160 seed counts, none under ${smallest.toFixed(1)} px`);
      const labels = page.locator('[data-widget="board"] button[data-action="labels"]');
      if ((await labels.getAttribute('aria-pressed')) !== 'true') await labels.click();
      const numbers = await page.locator('[data-widget="board"] .lt-labels text:visible').allTextContents();
      const expected = ['S', 'N'].flatMap(() => Array.from({ length: 80 }, (_, i) => String(i + 1))).sort().join(' ');
      if (numbers.slice().sort().join(' ') !== expected) fail(`4 x 40 at ${width}x${height}: the hole numbers shown are ${numbers.length}`);
      else pass(`4 x 40 at ${width}x${height}: hole numbers 1 to 80 of each side shown when switched on`);
    }
  }
  await page.setViewportSize({ width: 1280, height: 720 });
}

/* Every board of the shipped catalog, as a game or board page opens it, fits a phone 360 or 390 px wide without
 * scrolling inside its figure, legible and easy to touch: a sowing board's counts 11 px high or more, a points
 * board's hit circles 24 px across or more (WCAG 2.2's smallest target). With the point names shown, the board
 * keeps 65% of its scale or more, scrolling in its figure if it must. */
async function phoneFitTests(page) {
  const pages = sitePages().filter((rel) => /^(games|boards)\/[^/]+\/index\.html$/.test(rel));
  let boards = 0;
  for (const [width, height] of [[360, 740], [390, 844]]) {
    await page.setViewportSize({ width, height });
    for (const rel of pages) {
      await page.goto(url(rel));
      if ((await page.locator('[data-widget-slot="board"] script.board-data').count()) === 0) continue;
      await page.waitForSelector('[data-widget="board"][data-ready="true"]');
      if (width === 360) boards++;
      const measure = () => page.evaluate(() => {
        const figure = document.querySelector('[data-widget="board"] .lt-figure');
        const sizes = (sel, f) => [...figure.querySelectorAll(sel)].filter((e) => e.getBoundingClientRect().width > 0).map(f);
        const scale = (e) => e.getScreenCTM().a;
        return {
          scrolls: figure.scrollWidth > figure.clientWidth,
          counts: sizes('[data-point] text', (t) => parseFloat(getComputedStyle(t).fontSize) * scale(t)),
          hits: sizes('circle.lt-hit', (c) => 2 * c.r.baseVal.value * scale(c)),
          names: sizes('.lt-labels text', (t) => parseFloat(getComputedStyle(t).fontSize) * scale(t)),
        };
      });
      // The names' switch is remembered from page to page (an earlier test may have left it on).
      const labels = page.locator('[data-widget="board"] button[data-action="labels"]');
      if ((await labels.getAttribute('aria-pressed')) === 'true') await labels.click();
      const m = await measure();
      const problems = [];
      if (m.scrolls) problems.push('the board scrolls inside its figure');
      if (m.counts.some((s) => s < 10.95)) problems.push(`counts ${Math.min(...m.counts).toFixed(1)} px high`);
      if (m.hits.some((s) => s < 23.95)) problems.push(`hit circles ${Math.min(...m.hits).toFixed(1)} px across`);
      if (!m.counts.length && !m.hits.length) problems.push('no hole or point measured');
      if (problems.length) { fail(`${rel} at ${width} px: ${problems.join('; ')}`); continue; }
      if (!m.hits.length) { pass(`${rel} at ${width} px: fits, counts ${Math.min(...m.counts).toFixed(1)} px or more`); continue; }
      await labels.click();
      const named = await measure();
      await labels.click();
      // Names are 11 units high: 65% of the board's scale draws them 7.15 px high.
      if (!named.names.length || named.names.some((s) => s < 7.1)) {
        fail(`${rel} at ${width} px with the point names shown: ${named.names.length} names, the smallest ${Math.min(...named.names).toFixed(1)} px`);
      } else {
        pass(`${rel} at ${width} px: fits, hit circles ${Math.min(...m.hits).toFixed(1)} px or more; names shown at ${Math.min(...named.names).toFixed(1)} px or more`);
      }
    }
  }
  if (boards < 5) fail(`only ${boards} boards measured on a phone`);
  await page.setViewportSize({ width: 1280, height: 720 });
}

/* Every page of the built site, as paths relative to it. */
function sitePages() {
  const pages = [];
  (function walk(dir) {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name === 'index.html') pages.push(path.relative(site, p));
    }
  })(site);
  return pages.sort();
}

/* Every page of the site on a small phone (360 px, and 320 px for the oldest still in use): none scrolls
 * sideways. A failure names what sticks out past the screen. */
async function everyPageOnAPhone(page) {
  const pages = sitePages();
  for (const [width, height] of [[320, 640], [360, 740]]) {
    await page.setViewportSize({ width, height });
    const wide = [];
    for (const rel of pages) {
      await page.goto(url(rel));
      const found = await page.evaluate(() => {
        const doc = document.documentElement;
        if (doc.scrollWidth <= doc.clientWidth) return null;
        const out = [...document.querySelectorAll('body *')].find((e) => e.getBoundingClientRect().right > doc.clientWidth + 0.5);
        return `${doc.scrollWidth} px wide (${out ? out.tagName.toLowerCase() + ' "' + out.textContent.trim().slice(0, 50) + '"' : '?'})`;
      });
      if (found) wide.push(`${rel}: ${found}`);
    }
    if (wide.length) fail(`at ${width} px, ${wide.length} of ${pages.length} pages scroll sideways: ${wide.join('; ')}`);
    else pass(`at ${width} px, none of the ${pages.length} pages scrolls sideways`);
  }
  await page.setViewportSize({ width: 1280, height: 720 });
}

/* axe-core on every page of the site, not a sample: light on a laptop, dark on a phone, each with its board
 * ready where it has one. Not even a minor violation. */
async function axeEveryPage(page) {
  const source = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  const pages = sitePages();
  for (const [scheme, width, height] of [['light', 1280, 800], ['dark', 390, 844]]) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.setViewportSize({ width, height });
    const found = [];
    for (const rel of pages) {
      await page.goto(url(rel));
      if ((await page.locator('[data-widget-slot="board"] script.board-data').count()) > 0) {
        await page.waitForSelector('[data-widget="board"][data-ready="true"]');
      }
      await page.addScriptTag({ content: source });
      const violations = await page.evaluate(async () => (await window.axe.run(document, { resultTypes: ['violations'], preload: false }))
        .violations.map((v) => `${v.impact} ${v.id} (${v.nodes[0].target.join(' ')})`));
      for (const v of violations) found.push(`${rel}: ${v}`);
    }
    if (found.length) fail(`axe, ${scheme} at ${width} px: ${found.slice(0, 10).join('; ')}${found.length > 10 ? ` and ${found.length - 10} more` : ''}`);
    else pass(`axe, ${scheme} at ${width} px: no violation on any of the ${pages.length} pages`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 720 });
}

/* The pages with filters, on a phone: the filter groups start closed, so that the first rows are not pushed
 * a screen down, but for a group whose filter the address sets; on a laptop the first three start open. */
async function phoneFilterTests(page) {
  const groups = () => page.$$eval('[data-filters] details', (ds) => ds.map((d) => (d.open ? 'open' : 'closed')));
  for (const rel of ['browse/index.html', 'rules/index.html', 'timeline/index.html', 'map/index.html']) {
    for (const [width, height] of [[390, 844], [1280, 800]]) {
      await page.setViewportSize({ width, height });
      await page.goto('about:blank');
      await page.goto(url(rel));
      const found = await groups();
      const expected = found.map((_, i) => (width > 700 && i < 3 ? 'open' : 'closed'));
      if (found.length < 3 || found.join() !== expected.join()) fail(`${rel} at ${width} px: filter groups ${found.join(', ')}`);
      else pass(`${rel} at ${width} px: ${width > 700 ? 'the first three filter groups open' : 'the filter groups closed'}`);
    }
    // Reached from a filter's link: the group of that filter (the last, closed by default) opens, showing what
    // filters the rows; on a phone it is the only one open.
    const [name, value] = await page.$eval('[data-filters] details:last-of-type input[type="checkbox"]', (b) => [b.name, b.value]);
    for (const [width, height] of [[390, 844], [1280, 800]]) {
      await page.setViewportSize({ width, height });
      await page.goto('about:blank');
      await page.goto(url(rel) + '#' + new URLSearchParams([[name, value]]).toString());
      const states = await groups();
      const expected = states.map((_, i) => (i === states.length - 1 || (width > 700 && i < 3) ? 'open' : 'closed'));
      const set = await page.$eval('[data-filters] details:last-of-type input[type="checkbox"]', (b) => b.checked);
      if (!set || states.join() !== expected.join()) {
        fail(`${rel}#${name}=${value} at ${width} px: filter groups ${states.join(', ')}, the box ${set ? '' : 'not '}checked`);
      } else pass(`${rel}#${name}=${value} at ${width} px: the group of the filter set is open${width > 700 ? '' : ', and only it'}`);
    }
  }
  await page.setViewportSize({ width: 1280, height: 720 });
}

/* A site whose lists run to several pages. */
async function pagedTests(page) {
  // The page navigation: the current page is marked, and Next leads to the next page.
  await page.goto(url('browse/page/2/index.html', paged));
  const nav = page.getByRole('navigation', { name: 'Pages' });
  const current = await nav.locator('[aria-current="page"]').innerText();
  if (!/\b2\b/.test(current)) fail('browse page 2 marks "' + current + '" as the current page');
  await Promise.all([page.waitForURL(/browse\/page\/3\/index\.html$/), nav.getByRole('link', { name: 'Next' }).click()]);
  pass('the page navigation of browse marks the current page and leads to the next');
  await axeCheck(page, 'browse, page 3');

  // A filter from the URL filters this page and points to the list of every item with the value.
  await page.goto(url('browse/index.html', paged) + '#kind=board');
  await page.waitForFunction(() => document.querySelector('[data-status]').textContent.includes('on this page'));
  const status = await page.locator('[data-status]').innerText();
  const hint = page.locator('[data-hint] a');
  const shown = await page.locator('table.browse tbody tr:not([hidden])').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-kind')));
  if (shown.some((k) => k !== 'Board')) fail('browse #kind=board shows rows of kind ' + shown.join(', '));
  if ((await hint.count()) !== 1) fail('browse #kind=board gives no link beyond this page (' + status + ')');
  else {
    await Promise.all([page.waitForURL(/browse\/kind\/board\/index\.html$/), hint.click()]);
    const kinds = await page.locator('table.browse tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-kind')));
    if (kinds.length < 1 || kinds.some((k) => k !== 'Board')) fail('the list of boards holds ' + kinds.join(', '));
    else pass(`browse #kind=board: "${status}", and a link to the ${kinds.length} boards of its own list`);
    await axeCheck(page, 'browse, the list of one value');
  }

  for (const [rel, label] of [['rules/page/2/index.html', 'rules, page 2'], ['variants/index.html', 'variants, bounded graph'],
    ['tags/page/2/index.html', 'tag index, page 2'], ['uncatalogued/page/2/index.html', 'not yet catalogued, page 2']]) {
    if (!fs.existsSync(path.join(paged, rel))) { fail('the paged site has no ' + rel); continue; }
    await page.goto(url(rel, paged));
    await axeCheck(page, label);
  }
}

(async () => {
  if (!fs.existsSync(path.join(site, 'index.html'))) {
    console.error(`no site at ${site}: build it first`);
    process.exit(2);
  }
  validateHtml();
  await browserTests();
  if (failures > 0) {
    console.error(`${failures} browser test failure(s)`);
    process.exit(1);
  }
  console.log('browser tests passed');
})().catch((err) => {
  console.error(err);
  process.exit(1);
});
