// The interactive board in headless Chromium (Debian's), pages opened from file:// of a built site (SITE_DIR).
// Positions are checked against the native engine's (NATIVE_DUMP, from engine/examples/replay_dump.rs).
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { chromium } = require('playwright-core');

const SITE = process.env.SITE_DIR;
const native = new Map();
for (const line of fs.readFileSync(process.env.NATIVE_DUMP, 'utf8').split('\n')) {
  if (line.trim()) { const r = JSON.parse(line); native.set(r.file, r); }
}
const setupAt = (file, ply) => native.get(file).plies[ply].setup;

const url = (item) => 'file://' + path.join(SITE, 'games', item, 'index.html');
const BOARD = '[data-widget="board"]';

let failures = 0;
async function test(name, fn) {
  const started = Date.now();
  try {
    await fn();
    console.log(`ok   ${name} (${Date.now() - started} ms)`);
  } catch (err) {
    failures += 1;
    console.log(`FAIL ${name}\n     ${err.message.split('\n').join('\n     ')}`);
  }
}
function expect(cond, message) { if (!cond) throw new Error(message); }

(async () => {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'ludotheca-board-chromium-'));
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
    reducedMotion: 'reduce',
  });
  const problems = [];
  const watch = (page) => {
    page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`); });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('requestfailed', (r) => problems.push(`failed request: ${r.url()}`));
    return page;
  };
  const open = async (item, hash) => {
    const page = watch(await browser.newPage());
    await page.goto(url(item) + (hash || ''));
    await page.waitForSelector(`${BOARD}[data-ready="true"]`, { timeout: 10000 });
    return page;
  };
  const attr = (page, name) => page.$eval(BOARD, (e, n) => e.getAttribute(n), name);
  const clickPoint = (page, name) => page.click(`${BOARD} [data-point="${name}"]`);

  await test('replay: buttons, keys and the move list step through a record; the board follows', async () => {
    const file = 'games/terhuchu/games/illustrative-ten.game';
    const page = await open('terhuchu');
    await page.selectOption(`${BOARD} select[id$="-record"]`, 'illustrative-ten');
    expect(await attr(page, 'data-ply') === '0', 'starts at ply 0');
    for (let i = 0; i < 3; i++) await page.click(`${BOARD} [data-action="forward"]`);
    expect(await attr(page, 'data-ply') === '3', 'three clicks forward reach ply 3');
    expect(await attr(page, 'data-position') === setupAt(file, 3), 'the position at ply 3 is the native engine\'s');
    // The drawing: one piece per piece of the position.
    const pieces = setupAt(file, 3).split(';').filter((c) => / man /.test(c + ' ')).reduce((n, c) => n + c.trim().split(/\s+/).length - 2, 0);
    expect(await page.$$eval(`${BOARD} .lt-piece`, (l) => l.length) === pieces, `${pieces} pieces drawn`);
    await page.focus(BOARD);
    await page.keyboard.press('ArrowRight');
    expect(await attr(page, 'data-ply') === '4', 'right arrow: ply 4');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    expect(await attr(page, 'data-ply') === '2', 'left arrow twice: ply 2');
    await page.keyboard.press('End');
    const length = native.get(file).plies.length - 1;
    expect(await attr(page, 'data-ply') === String(length), 'End: the last ply');
    expect(await attr(page, 'data-position') === setupAt(file, length), 'the last position is the native engine\'s');
    expect(await page.$eval(`${BOARD} .lt-status`, (e) => e.textContent).then((t) => /Game over|to move/.test(t)), 'a status is shown');
    await page.keyboard.press('Home');
    expect(await attr(page, 'data-ply') === '0', 'Home: ply 0');
    await page.click(`${BOARD} .lt-moves button[data-ply="7"]`);
    expect(await attr(page, 'data-ply') === '7', 'clicking the 7th move jumps to it');
    expect(await attr(page, 'data-position') === setupAt(file, 7), 'the position at ply 7 is the native engine\'s');
    await page.fill(`${BOARD} .lt-scrubber`, '10');
    expect(await attr(page, 'data-ply') === '10', 'the scrubber reaches ply 10');
    await page.click(`${BOARD} [data-action="back"]`);
    expect(await attr(page, 'data-ply') === '9', 'back: ply 9');
    await page.focus(BOARD);
    await page.keyboard.press(' ');
    await page.waitForFunction((sel) => document.querySelector(sel).dataset.ply === '10', BOARD, { timeout: 5000 });
    await page.keyboard.press(' ');
    await page.close();
  });

  await test('the widget draws the board as the static diagram does (same points, same coordinates)', async () => {
    for (const [item, ruleset] of [['terhuchu', 'large'], ['shimunana', 'shimunana']]) {
      const page = await open(item);
      await page.selectOption(`${BOARD} select[id$="-ruleset"]`, ruleset);
      const read = (root) => page.$$eval(`${root} [data-point]`, (gs) => gs.map((g) => {
        const c = g.querySelector('circle.point, circle.hole');
        return `${g.dataset.point}@${Math.round(+c.getAttribute('cx'))},${Math.round(+c.getAttribute('cy'))}`;
      }).sort().join(' '));
      const widget = await read(BOARD);
      // The ruleset's own diagram is a picture file shared by every page that shows that board: read it from
      // the site and lay it into the page, to read it the same way.
      const src = await page.$eval(`#ruleset-${ruleset} img.board`, (img) => img.getAttribute('src'));
      const svg = fs.readFileSync(path.join(SITE, 'games', item, src), 'utf8');
      await page.evaluate((text) => {
        const holder = document.createElement('div');
        holder.id = 'diagram-under-test';
        holder.hidden = true;
        holder.append(new DOMParser().parseFromString(text, 'image/svg+xml').documentElement);
        document.body.append(holder);
      }, svg);
      const diagram = await read('#diagram-under-test');
      expect(widget.length > 0 && widget === diagram, `${item} ${ruleset}: ${widget.slice(0, 80)} vs ${diagram.slice(0, 80)}`);
      await page.close();
    }
  });

  await test('the URL hash holds the record and ply, and restores them on reload', async () => {
    const page = await open('terhuchu', '#record=illustrative-ten&ply=12');
    expect(await attr(page, 'data-ply') === '12', 'the hash sets ply 12');
    expect(await attr(page, 'data-record') === 'illustrative-ten', 'and the record');
    await page.click(`${BOARD} [data-action="forward"]`);
    expect(/ply=13/.test(page.url()), 'stepping writes the ply into the hash: ' + page.url());
    await page.reload();
    await page.waitForSelector(`${BOARD}[data-ready="true"]`);
    expect(await attr(page, 'data-ply') === '13', 'a reload comes back to ply 13');
    expect(await attr(page, 'data-position') === setupAt('games/terhuchu/games/illustrative-ten.game', 13), 'at the same position');
    await page.close();
  });

  // The clipboard is replaced by a catcher: headless Chromium may refuse a page the real one.
  const catchClipboard = (page) => page.evaluate(() => {
    window.copied = null;
    navigator.clipboard.writeText = (t) => { window.copied = t; return Promise.resolve(); };
  });
  const reloaded = async (page, link) => {
    const again = await open('bagh-chal', link.slice(link.indexOf('#')));
    const got = { ply: await attr(again, 'data-ply'), position: await attr(again, 'data-position'),
      mode: await attr(again, 'data-mode'), record: await attr(again, 'data-record') };
    await again.close();
    return got;
  };

  await test('copy link: reached by Tab, copies the record and ply, which a new page restores', async () => {
    const page = await open('terhuchu', '#record=illustrative-ten&ply=5');
    await catchClipboard(page);
    await page.focus(`${BOARD} [data-action="labels"]`);
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => document.activeElement.getAttribute('data-action'));
    expect(focused === 'link', 'Tab from the labels button reaches the link button, not ' + focused);
    const name = await page.$eval(`${BOARD} [data-action="link"]`, (b) => b.textContent);
    expect(/copy link/i.test(name), 'the button is named: ' + name);
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => window.copied);
    const link = await page.evaluate(() => window.copied);
    expect(link === page.url() && /#record=illustrative-ten&ply=5$/.test(link), 'the full address is copied: ' + link);
    expect(/copied/.test(await page.$eval(`${BOARD} [role="status"]`, (e) => e.textContent)), 'the status line says so');
    const again = watch(await browser.newPage());
    await again.goto(link);
    await again.waitForSelector(`${BOARD}[data-ready="true"]`);
    expect(await attr(again, 'data-ply') === '5', 'the link opens at ply 5');
    expect(await attr(again, 'data-position') === setupAt('games/terhuchu/games/illustrative-ten.game', 5), 'at the same position');
    await again.close();
    await page.close();
  });

  await test('copy link: a line played from the start or off a record is named by its moves and replayed', async () => {
    const page = await open('bagh-chal');
    await catchClipboard(page);
    await clickPoint(page, 'c3');
    await clickPoint(page, 'a1');
    await clickPoint(page, 'a2');
    expect(await attr(page, 'data-ply') === '2', 'two moves played');
    const position = await attr(page, 'data-position');
    await page.click(`${BOARD} [data-action="link"]`);
    await page.waitForFunction(() => window.copied);
    let link = await page.evaluate(() => window.copied);
    expect(/line=%40c3_a1-a2$/.test(link), 'the link names the moves: ' + link);
    let got = await reloaded(page, link);
    expect(got.ply === '2' && got.position === position && got.mode === 'play', 'the line is replayed: ' + JSON.stringify(got));

    // Off a record: its first move, then another than its second.
    await page.selectOption(`${BOARD} select[id$="-record"]`, 'illustrative-common');
    await clickPoint(page, 'c3');
    expect(await attr(page, 'data-mode') === 'replay', 'the record\'s own move keeps the replay');
    await clickPoint(page, 'a1');
    await clickPoint(page, 'a2');
    expect(await attr(page, 'data-mode') === 'play', 'a move off the record');
    await page.evaluate(() => { window.copied = null; });
    await page.click(`${BOARD} [data-action="link"]`);
    await page.waitForFunction(() => window.copied);
    link = await page.evaluate(() => window.copied);
    expect(/#record=illustrative-common&line=%40c3_a1-a2$/.test(link), 'the link names the record and the moves: ' + link);
    got = await reloaded(page, link);
    expect(got.ply === '2' && got.position === position && got.mode === 'play' && got.record === 'illustrative-common',
      'the line off the record is replayed: ' + JSON.stringify(got));

    // An illegal line is refused quietly: the start position.
    got = await reloaded(page, '#line=%40c3_%40c3');
    expect(got.ply === '0' && got.mode === 'play', 'an illegal line leaves the start: ' + JSON.stringify(got));

    // Without the clipboard the address is selected in a field.
    await page.evaluate(() => { Object.defineProperty(navigator, 'clipboard', { value: undefined }); });
    await page.click(`${BOARD} [data-action="link"]`);
    const field = await page.$eval(`${BOARD} .lt-link`, (f) => ({ hidden: f.hidden, value: f.value,
      focused: document.activeElement === f, selected: f.selectionEnd - f.selectionStart }));
    expect(!field.hidden && field.value === page.url() && field.focused && field.selected === field.value.length,
      'the address is shown and selected: ' + JSON.stringify(field));
    expect(/selected/.test(await page.$eval(`${BOARD} [role="status"]`, (e) => e.textContent)), 'the status line says so');
    await page.close();
  });

  await test('a capture chain is built click by click, and an illegal click is refused with a reason', async () => {
    const page = await open('terhuchu');
    // Free play: a Black piece cannot move on White's turn.
    await clickPoint(page, 'a5');
    expect(/Black/.test(await attr(page, 'data-refused') || ''), 'refused: ' + await attr(page, 'data-refused'));
    expect(await attr(page, 'data-ply') === '0', 'nothing was played');
    await page.selectOption(`${BOARD} select[id$="-record"]`, 'demo-chain-turns');
    await clickPoint(page, 'a1');
    const targets = await page.$$eval(`${BOARD} .lt-target`, (l) => l.map((g) => g.dataset.point));
    expect(targets.includes('a3') && !targets.includes('e5'), 'a3 is highlighted: ' + targets.join(' '));
    await clickPoint(page, 'e5');
    expect(await attr(page, 'data-refused'), 'a click off the legal paths is refused');
    await clickPoint(page, 'a3');
    expect(await attr(page, 'data-route') === 'a1 a3', 'the chain has reached a3');
    await clickPoint(page, 'c1');
    expect(await attr(page, 'data-ply') === '1', 'the chain a1xa3xc1 is played');
    const pos = await attr(page, 'data-position');
    expect(/white man c1/.test(pos) && !/a2|b2/.test(pos), 'White stands on c1 and a2, b2 are taken: ' + pos);
    await page.close();
  });

  await test('the board by keyboard: arrow keys across points, Enter to select and to move; moves are announced', async () => {
    const page = await open('terhuchu');
    await page.focus(`${BOARD} [data-point="a1"]`);
    await page.keyboard.press('ArrowUp');
    expect(await page.evaluate(() => document.activeElement.dataset.point) === 'a2', 'up from a1 is a2');
    await page.keyboard.press('ArrowRight');
    expect(await page.evaluate(() => document.activeElement.dataset.point) === 'b2', 'right from a2 is b2');
    await page.keyboard.press('Enter');
    expect(await attr(page, 'data-route') === 'b2', 'Enter selects the piece on b2');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Enter');
    expect(await attr(page, 'data-ply') === '1', 'Enter on b3 plays b2-b3');
    await page.waitForFunction((sel) => /plays b2-b3/.test(document.querySelector(sel + ' [aria-live]').textContent), BOARD);
    await page.close();
  });

  await test('a huff is chosen among the moves a route completes (Mogol Putt\'han)', async () => {
    const page = await open('mogol-putthan', '#record=demo-huffing&ply=1');
    expect(await attr(page, 'data-ply') === '1', 'after White\'s missed capture');
    expect(await page.$$eval(`${BOARD} .lt-huffable`, (l) => l.map((g) => g.dataset.point).join(' ')) === 'c4', 'c4 is marked as huffable');
    await clickPoint(page, 'e1');
    await clickPoint(page, 'd1');
    const choices = await page.$$eval(`${BOARD} [data-action="choose"]`, (l) => l.map((b) => b.dataset.move));
    expect(choices.includes('~c4/e1-d1') && choices.includes('e1-d1'), 'with or without the huff: ' + choices.join(' '));
    await page.click(`${BOARD} [data-move="~c4/e1-d1"]`);
    expect(await attr(page, 'data-ply') === '2', 'the huff and the move are played');
    expect(await attr(page, 'data-mode') === 'replay', 'along the record\'s own line');
    expect(!/c4/.test(await attr(page, 'data-position')), 'the huffed piece is gone');
    await page.close();
  });

  await test('the ruleset switcher redraws the board from that ruleset', async () => {
    const page = await open('terhuchu');
    const before = await page.$$eval(`${BOARD} [data-point]`, (l) => l.length);
    await page.selectOption(`${BOARD} select[id$="-ruleset"]`, 'large');
    expect(await attr(page, 'data-ruleset') === 'large', 'the ruleset is large');
    const after = await page.$$eval(`${BOARD} [data-point]`, (l) => l.length);
    expect(after > before, `the enlarged board has more points (${before} -> ${after})`);
    expect(/ruleset=large/.test(page.url()), 'the hash names the ruleset');
    expect(await page.$eval(`${BOARD} .lt-rules-link`, (a) => a.getAttribute('href')) === '#ruleset-large', 'and links to its rules');
    await page.close();
  });

  await test('a placement from hand (Bagh-Chal), undo and redo, the computer answers', async () => {
    const page = await open('bagh-chal');
    await clickPoint(page, 'c3');
    expect(await attr(page, 'data-ply') === '1', 'a goat placed on c3');
    await page.click(`${BOARD} [data-action="undo"]`);
    expect(await attr(page, 'data-ply') === '0', 'undone');
    await page.click(`${BOARD} [data-action="redo"]`);
    expect(await attr(page, 'data-ply') === '1', 'redone');
    await page.selectOption(`${BOARD} select[id$="-computer"]`, await attr(page, 'data-to-move'));
    await page.waitForFunction((sel) => document.querySelector(sel).dataset.ply === '2', BOARD, { timeout: 5000 });
    const ms = +(await attr(page, 'data-think-ms'));
    expect(ms < 1000, `the computer answered in ${ms} ms`);
    await page.close();
  });

  await test('a sowing move on Tchouba by clicks, extra holes chosen where the rules give a choice', async () => {
    const page = await open('tchouba');
    const before = await attr(page, 'data-position');
    await clickPoint(page, 'N1');
    expect(/North/.test(await attr(page, 'data-refused') || ''), 'a hole of North is refused on South\'s turn');
    await clickPoint(page, 'S1');
    for (let i = 0; i < 5 && (await attr(page, 'data-route')); i++) {
      await page.click(`${BOARD} .lt-target`);
    }
    expect(await attr(page, 'data-ply') === '1', 'the sowing is played');
    expect(await attr(page, 'data-position') !== before, 'the seeds moved');
    await page.close();
  });

  await test('sowing is animated seed by seed when motion is allowed', async () => {
    const page = watch(await browser.newPage());
    await page.emulateMedia({ reducedMotion: 'no-preference' });
    await page.goto(url('shimunana'));
    await page.waitForSelector(`${BOARD}[data-ready="true"]`);
    await clickPoint(page, 'S1');
    await page.waitForSelector(`${BOARD}[data-animating="true"]`, { timeout: 2000 });
    await page.waitForFunction((sel) => !document.querySelector(sel).dataset.animating, BOARD, { timeout: 8000 });
    for (let i = 0; i < 5 && (await attr(page, 'data-route')); i++) await page.click(`${BOARD} .lt-target`);
    expect(await attr(page, 'data-ply') === '1', 'the sowing is played after its animation');
    await page.close();
  });

  await test('a puzzle refuses a wrong move and accepts the solution', async () => {
    const page = await open('bagh-chal', '#record=puzzle-last-tiger');
    expect(await attr(page, 'data-mode') === 'puzzle', 'puzzle mode');
    expect(await page.$$eval(`${BOARD} .lt-moves button`, (l) => l.length) === 0, 'the solution is hidden');
    await page.focus(BOARD);
    await page.keyboard.press('ArrowRight');
    expect(await attr(page, 'data-ply') === '0', 'stepping forward cannot show the solution');
    await clickPoint(page, 'b2');
    await clickPoint(page, 'c3');
    expect(await attr(page, 'data-ply') === '0', 'b2-c3 is refused');
    expect(/Not the solution/.test(await attr(page, 'data-refused') || ''), 'with an explanation');
    await clickPoint(page, 'c2');
    await clickPoint(page, 'c3');
    expect(await attr(page, 'data-solved') === 'true', 'c2-c3 solves it');
    await page.close();
  });

  // The labels on the board: every point's name (lines) or hole's number (sowing), for the eye only.
  const labels = (page) => page.$$eval(`${BOARD} .lt-labels text`, (ts) => ts.map((t) => {
    const r = t.getBoundingClientRect();
    return { text: t.textContent, shown: r.width > 0 && r.height > 0, box: [r.left, r.top, r.right, r.bottom] };
  }));
  const names = (page) => page.$$eval(`${BOARD} [data-point]`, (gs) => gs.map((g) => g.dataset.point));
  const overlap = (a, b) => a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];
  // Every point has one label, shown, with its name (a hole: its number), and none covers a piece or another label.
  const expectLabels = async (page, what) => {
    const ls = await labels(page), ns = await names(page), sowing = await attr(page, 'data-family') === 'sowing';
    const want = ns.map((n) => (sowing ? n.slice(1) : n)).sort().join(' ');
    expect(ls.length === ns.length, `${what}: ${ls.length} labels for ${ns.length} points`);
    expect(ls.map((l) => l.text).sort().join(' ') === want, `${what}: the labels are the names: ${ls.map((l) => l.text).join(' ')}`);
    expect(ls.every((l) => l.shown), `${what}: every label is shown`);
    expect(await page.$eval(`${BOARD} .lt-labels`, (g) => g.getAttribute('aria-hidden')) === 'true', `${what}: the labels are hidden from screen readers`);
    const solid = await page.$$eval(`${BOARD} .lt-piece, ${BOARD} [data-point] > text`, (es) => es.map((e) => {
      const r = e.getBoundingClientRect();
      return [r.left, r.top, r.right, r.bottom];
    }));
    ls.forEach((l, i) => {
      const piece = solid.find((b) => overlap(l.box, b));
      expect(!piece, `${what}: the label ${l.text} covers a piece or a seed count`);
      const other = ls.find((m, j) => j !== i && overlap(l.box, m.box));
      expect(!other, `${what}: the labels ${l.text} and ${other && other.text} overlap`);
    });
  };
  const labelsButton = (page, name) => page.getByRole('button', { name });
  const pressed = (page, name) => labelsButton(page, name).getAttribute('aria-pressed');

  await test('the labels toggle: point names on and off by keyboard, through ruleset switches, replay and play', async () => {
    const page = await open('terhuchu');
    expect(await pressed(page, 'Show point names') === 'false', 'off by default');
    expect((await labels(page)).every((l) => !l.shown), 'no label is shown');
    await labelsButton(page, 'Show point names').focus();
    await page.keyboard.press('Enter');
    expect(await pressed(page, 'Show point names') === 'true', 'Enter turns the labels on');
    await expectLabels(page, 'terhuchu ten');
    await page.keyboard.press(' ');
    expect(await pressed(page, 'Show point names') === 'false', 'space turns them off');
    expect((await labels(page)).every((l) => !l.shown), 'and hides every label');
    await page.keyboard.press(' ');
    expect(await pressed(page, 'Show point names') === 'true', 'space turns them on again');
    await page.selectOption(`${BOARD} select[id$="-ruleset"]`, 'large');
    await expectLabels(page, 'terhuchu large');
    await page.selectOption(`${BOARD} select[id$="-ruleset"]`, 'ten');
    await page.selectOption(`${BOARD} select[id$="-record"]`, 'illustrative-ten');
    await page.click(`${BOARD} [data-action="forward"]`);
    await page.fill(`${BOARD} .lt-scrubber`, '10');
    await expectLabels(page, 'terhuchu ten, replay at ply 10');
    await page.selectOption(`${BOARD} select[id$="-record"]`, '');
    await clickPoint(page, 'b2');
    await clickPoint(page, 'b3');
    expect(await attr(page, 'data-ply') === '1', 'a move is played with the labels on');
    await expectLabels(page, 'terhuchu ten, after a move');
    await page.reload();
    await page.waitForSelector(`${BOARD}[data-ready="true"]`);
    expect(await pressed(page, 'Show point names') === 'true', 'the choice is kept across a reload');
    await expectLabels(page, 'terhuchu after a reload');
    await page.close();
  });

  await test('the labels toggle on a sowing board: hole numbers, the choice kept from another page', async () => {
    const page = await open('shimunana');
    expect(await pressed(page, 'Show hole numbers') === 'true', 'the choice made on Terhuchu\'s page holds');
    await expectLabels(page, 'shimunana');
    await page.click(`${BOARD} [data-action="labels"]`);
    expect(await pressed(page, 'Show hole numbers') === 'false', 'a click turns them off');
    await page.goto(url('tchouba'));
    await page.waitForSelector(`${BOARD}[data-ready="true"]`);
    expect(await pressed(page, 'Show hole numbers') === 'false', 'and that is kept too');
    await labelsButton(page, 'Show hole numbers').click();
    await clickPoint(page, 'S1');
    for (let i = 0; i < 5 && (await attr(page, 'data-route')); i++) await page.click(`${BOARD} .lt-target`);
    expect(await attr(page, 'data-ply') === '1', 'a sowing is played with the numbers on');
    await expectLabels(page, 'tchouba after a sowing');
    await page.click(`${BOARD} [data-action="labels"]`);
    await page.close();
  });

  await test('the labels toggle works where storage throws (a page from disk with storage refused)', async () => {
    const page = watch(await browser.newPage());
    await page.addInitScript(() => {
      Object.defineProperty(window, 'localStorage', { get() { throw new DOMException('refused', 'SecurityError'); } });
    });
    await page.goto(url('bagh-chal'));
    await page.waitForSelector(`${BOARD}[data-ready="true"]`, { timeout: 10000 });
    expect(await pressed(page, 'Show point names') === 'false', 'off');
    await labelsButton(page, 'Show point names').click();
    expect(await pressed(page, 'Show point names') === 'true', 'on for this page');
    await expectLabels(page, 'bagh-chal');
    await page.close();
  });

  await test('without JavaScript the static diagram and the records as written remain, each text once', async () => {
    const html = fs.readFileSync(path.join(SITE, 'games', 'terhuchu', 'index.html'), 'utf8');
    expect(/<section id="board"[^>]*data-widget-slot="board"/.test(html), 'the slot');
    expect(/<div class="board-figure"><img class="board" src="\.\.\/\.\.\/diagrams\/[0-9a-f]{20}\.svg" width="\d+" height="\d+" alt="Terhuchu, [^"]*: the board at the start\. 25 points\. /.test(html),
      'the start drawn: the picture file of the first ruleset\'s diagram, described in its alt text');
    expect(/<pre class="board-record" data-record="demo-chain-turns">\n\[Event &quot;Demonstration: a multiple capture/.test(html),
      'each record shown as written');
    expect(html.split('1. a1xa3xc1 *').length === 2, 'a record\'s moves are in the page once');
    expect(html.split('# Terhuchu (&quot;fighting-eating&quot;), Angami Naga').length === 2, 'the rules file is in the page once');
    const data = JSON.parse(/<script type="application\/json" class="board-data">([^<]*)<\/script>/.exec(html)[1]);
    expect(data.rules === undefined && data.records.every(r => r.text === undefined),
      'the board\'s data leaves out the texts the page shows');
  });

  await test('a board page carries the board of its game', async () => {
    const page = watch(await browser.newPage());
    await page.goto('file://' + path.join(SITE, 'boards', 'kherjarala-rock-board', 'index.html'));
    await page.waitForSelector(`${BOARD}[data-ready="true"]`, { timeout: 10000 });
    expect((await attr(page, 'data-position')).length > 0, 'a position');
    await page.close();
  });

  await test('the move list keeps the current move in sight by scrolling itself, not the page', async () => {
    const page = await open('terhuchu', '#record=illustrative-ten');
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.evaluate(() => window.scrollTo(0, 0));
    const seen = () => page.$eval(`${BOARD} .lt-moves`, (box) => {
      const cur = box.querySelector('.current');
      const a = box.getBoundingClientRect(), b = cur.getBoundingClientRect();
      return { inside: b.top >= a.top - 1 && b.bottom <= a.bottom + 1, scrolled: box.scrollTop, tall: box.scrollHeight > box.clientHeight, page: window.scrollY };
    });
    await page.focus(BOARD);
    const at = await page.evaluate(() => window.scrollY);
    await page.keyboard.press('End');
    let s = await seen();
    expect(s.tall, 'the list of a long record scrolls');
    expect(s.inside && s.scrolled > 0, 'End: the last move is in sight in the list: ' + JSON.stringify(s));
    expect(s.page === at, `the page itself did not scroll: ${at} -> ${s.page}`);
    await page.keyboard.press('Home');
    await page.keyboard.press('ArrowRight');
    s = await seen();
    expect(s.inside && s.scrolled === 0, 'back at the first move, the list shows it: ' + JSON.stringify(s));
    await page.fill(`${BOARD} .lt-scrubber`, String(+(await attr(page, 'data-length')) - 3));
    s = await seen();
    expect(s.inside && s.page === at, 'the scrubber too: ' + JSON.stringify(s));
    await page.close();
  });

  await test('a sowing board has its own help text; a lines board has the points-and-lines one', async () => {
    const help = (page) => page.$eval(`${BOARD} .lt-help`, (e) => (e.hidden ? '' : e.textContent));
    const page = await open('tchouba');
    const sowing = await help(page);
    expect(/sow/.test(sowing) && /hole/.test(sowing) && /arrow keys/.test(sowing), 'sowing help: ' + sowing);
    expect(!/Click a piece/.test(sowing), 'not the help of points-and-lines games');
    const page2 = await open('terhuchu');
    const lines = await help(page2);
    expect(/Click a piece/.test(lines) && !/sow/.test(lines), 'lines help: ' + lines);
    expect(await page2.$eval(BOARD, (b) => document.getElementById(b.getAttribute('aria-describedby')).textContent) === lines,
      'the board is described by it');
    await page.close();
    await page2.close();
  });

  await test('wording: a plural side wins in agreement, captures say who took them, counts are plural', async () => {
    const page = await open('bagh-chal', '#record=illustrative-common');
    await page.focus(BOARD);
    await page.keyboard.press('End');
    const status = await page.$eval(`${BOARD} .lt-status`, (e) => e.textContent);
    const outcome = await attr(page, 'data-outcome');
    expect(outcome === '0-1' && status === 'Game over: Goats win (0-1).', 'the result agrees with "Goats": ' + status);
    const counts = await page.$eval(`${BOARD} .lt-counts`, (e) => e.textContent);
    expect(/Pieces taken by Tigers: \d+; by Goats: \d+\./.test(counts) && !/Captured:/.test(counts), 'who took whom: ' + counts);
    await page.keyboard.press('Home');
    const start = await page.$eval(`${BOARD} .lt-counts`, (e) => e.textContent);
    expect(/in hand: 20 goats\./.test(start), 'twenty goats in hand, in the plural: ' + start);
    await page.selectOption(`${BOARD} select[id$="-record"]`, '');
    await clickPoint(page, 'c3');
    const after = await page.$eval(`${BOARD} .lt-counts`, (e) => e.textContent);
    expect(/in hand: 19 goats\./.test(after), 'after one goat placed: ' + after);
    await page.waitForFunction((sel) => /Goats play @?c3\./.test(document.querySelector(sel + ' [aria-live]').textContent), BOARD);
    await page.close();
    const t = await open('tchouba');
    const seeds = await t.$eval(`${BOARD} .lt-counts`, (e) => e.textContent);
    expect(/^Seeds taken by South: 0; by North: 0\./.test(seeds), 'a sowing board counts seeds: ' + seeds);
    const one = await t.$$eval(`${BOARD} [data-point]`, (gs) => gs.map((g) => g.getAttribute('aria-label')));
    expect(one.every((l) => !/\b1 seeds\b/.test(l) && !/\b(0|[2-9]\d*) seed$/.test(l)), 'hole labels count seeds in the plural');
    await t.close();
  });

  await test('a refusal does not stay once the next sowing starts, nor when the replay steps', async () => {
    const page = await open('tchouba');
    await clickPoint(page, 'N1');
    expect(/North/.test(await page.$eval(`${BOARD} .lt-message`, (e) => e.textContent)), 'the refusal is shown');
    await clickPoint(page, 'S1');
    expect(!/North/.test(await page.$eval(`${BOARD} .lt-message`, (e) => e.textContent)), 'and gone when South sows');
    for (let i = 0; i < 5 && (await attr(page, 'data-route')); i++) await page.click(`${BOARD} .lt-target`);
    await clickPoint(page, 'S2');
    expect(await page.$eval(`${BOARD} .lt-message`, (e) => e.textContent), 'a refusal on North\'s turn');
    await page.click(`${BOARD} [data-action="back"]`);
    expect(await page.$eval(`${BOARD} .lt-message`, (e) => e.textContent) === '', 'stepping back clears it');
    await page.close();
    const motion = watch(await browser.newPage());
    await motion.emulateMedia({ reducedMotion: 'no-preference' });
    await motion.goto(url('shimunana'));
    await motion.waitForSelector(`${BOARD}[data-ready="true"]`);
    await clickPoint(motion, 'N1');
    await clickPoint(motion, 'S1');
    await motion.waitForSelector(`${BOARD}[data-animating="true"]`, { timeout: 2000 });
    expect(await motion.$eval(`${BOARD} .lt-message`, (e) => e.textContent) === '', 'no old refusal during the animation');
    await motion.waitForFunction((sel) => !document.querySelector(sel).dataset.animating, BOARD, { timeout: 8000 });
    await motion.close();
  });

  await test('the games the computer played against itself say so, in the menu and over the moves', async () => {
    const page = await open('terhuchu');
    const options = await page.$$eval(`${BOARD} select[id$="-record"] option`, (os) => os.map((o) => [o.value, o.textContent]));
    const illustrative = options.filter(([v]) => /^illustrative-/.test(v));
    expect(illustrative.length > 0 && illustrative.every(([, t]) => /the computer playing both sides/.test(t)),
      'every illustrative game is labelled: ' + illustrative.map(([, t]) => t).join(' | '));
    expect(options.filter(([v]) => /^demo-/.test(v)).every(([, t]) => !/computer/.test(t)), 'demonstrations are not');
    await page.selectOption(`${BOARD} select[id$="-record"]`, 'illustrative-ten');
    await page.click(`${BOARD} [data-action="forward"]`);
    const heading = await page.$eval(`${BOARD} .lt-moves-heading`, (e) => e.textContent);
    expect(heading === 'Moves (the computer playing both sides)', 'the heading: ' + heading);
    expect(await page.$eval(`${BOARD} .lt-moves`, (l) => document.getElementById(l.getAttribute('aria-labelledby')).textContent) === heading,
      'it names the list');
    await page.selectOption(`${BOARD} select[id$="-record"]`, 'demo-chain-turns');
    await page.click(`${BOARD} [data-action="forward"]`);
    expect(await page.$eval(`${BOARD} .lt-moves-heading`, (e) => e.textContent) === 'Moves', 'a demonstration\'s heading');
    await page.close();
  });

  await test('printed: the position and the moves, not the controls', async () => {
    const page = await open('terhuchu', '#record=illustrative-ten&ply=20');
    await page.emulateMedia({ media: 'print' });
    const shown = await page.$$eval(`${BOARD} button, ${BOARD} select, ${BOARD} input, ${BOARD} .lt-help`, (es) => es
      .filter((e) => !e.closest('.lt-moves') && e.getBoundingClientRect().width > 0)
      .map((e) => e.outerHTML.slice(0, 80)));
    expect(shown.length === 0, 'no control is printed: ' + shown.join(' | '));
    for (const sel of ['.lt-top', '.lt-controls', '.lt-play']) {
      expect(await page.$eval(`${BOARD} ${sel}`, (e) => getComputedStyle(e).display) === 'none', sel + ' is display: none');
    }
    const svg = await page.$eval(`${BOARD} svg.board`, (e) => { const r = e.getBoundingClientRect(); return [r.width, r.height]; });
    expect(svg[0] > 100 && svg[1] > 100, 'the board is printed: ' + svg);
    const moves = await page.$eval(`${BOARD} .lt-moves`, (e) => [e.getBoundingClientRect().height, e.scrollHeight, e.children.length]);
    expect(moves[2] > 20 && moves[0] >= moves[1] - 1, 'the whole move list is printed: ' + moves);
    // Headless Chromium prints to PDF: count its pages (10 A4 pages before the print styles; 9 counted by hand).
    const sheets = async (p) => (await p.pdf({ format: 'A4' })).toString('latin1').match(/\/Type\s*\/Page[^s]/g).length;
    const withRecord = await sheets(page);
    await page.close();
    const plain = await open('terhuchu');
    const pages = await sheets(plain);
    console.log(`     Terhuchu's page prints on ${pages} A4 pages, ${withRecord} with a game of 400 moves shown`);
    expect(pages <= 6 && withRecord <= 7, `Terhuchu's page prints on ${pages} A4 pages, ${withRecord} with a game shown`);
    await plain.close();
  });

  await test('no console error or warning, no failed request', async () => {
    expect(problems.length === 0, problems.join('\n'));
  });

  await browser.close();
  fs.rmSync(profile, { recursive: true, force: true });
  if (failures) { console.log(`board browser tests: ${failures} failed`); process.exit(1); }
  console.log('board browser tests: all passed');
})().catch((err) => { console.error(err); process.exit(1); });
