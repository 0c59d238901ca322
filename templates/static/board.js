/* The interactive board (docs/board.md): a classic script that turns each [data-widget-slot="board"] section, with
   the rules and records its page embeds, into a board to replay, play and solve puzzles on. The rules run in the
   engine compiled to WebAssembly (static/engine.js), so the page and `ludotheca check` never disagree. */
(function () {
'use strict';

var SVG = 'http://www.w3.org/2000/svg';
// The same scale as the site's static diagrams (src/site/board.rs), so the board looks the same.
var UNIT = 64, MARGIN = 28;
var reducedMotion = window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches;

/* The engine */

var enginePromise = null;

function gunzipBase64(text) {
  var bytes = Uint8Array.from(atob(text), function (c) { return c.charCodeAt(0); });
  return new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'))).arrayBuffer();
}

function loadEngine() {
  if (enginePromise) return enginePromise;
  var packed = window.LudothecaEngine;
  if (!packed || !packed['gzip-base64']) return Promise.reject(new Error('the engine script (static/engine.js) is missing'));
  enginePromise = gunzipBase64(packed['gzip-base64'])
    .then(function (buf) {
      return WebAssembly.instantiate(buf, { env: { now_ms: function () { return performance.now(); } } });
    })
    .then(function (r) { return new Engine(r.instance.exports); });
  return enginePromise;
}

var encoder = new TextEncoder(), decoder = new TextDecoder();

function Engine(ex) { this.ex = ex; }

// Strings go last, into the engine's memory, freed after.
Engine.prototype.call = function (name, args, texts) {
  var ex = this.ex, held = [];
  [].concat(texts == null ? [] : texts).forEach(function (text) {
    var bytes = encoder.encode(text), ptr = ex.lt_alloc(bytes.length);
    new Uint8Array(ex.memory.buffer, ptr, bytes.length).set(bytes);
    held.push(ptr, bytes.length);
  });
  var rc = ex[name].apply(null, args.concat(held));
  for (var i = 0; i < held.length; i += 2) ex.lt_free(held[i], held[i + 1]);
  var out = decoder.decode(new Uint8Array(ex.memory.buffer, ex.lt_out_ptr(), ex.lt_out_len()));
  return { ok: rc >= 0, rc: rc, out: out };
};

Engine.prototype.newGame = function (rules, ruleset) {
  var r = this.call('lt_new', [], [rules, ruleset || '']);
  if (!r.ok) throw new Error(describeError(JSON.parse(r.out)));
  return new Game(this, r.rc);
};

function describeError(e) {
  return e.line ? 'line ' + e.line + ', column ' + e.column + ': ' + e.error : e.error;
}

function Game(engine, h) {
  this.engine = engine;
  this.h = h;
  this.info = this.json('lt_info');
}
Game.prototype.json = function (name, text) {
  var r = this.engine.call(name, [this.h], text);
  if (!r.ok) throw new Error(describeError(JSON.parse(r.out)));
  return r.out ? JSON.parse(r.out) : null;
};
Game.prototype.attempt = function (name, text) {
  var r = this.engine.call(name, [this.h], text);
  return r.ok ? null : describeError(JSON.parse(r.out));
};
Game.prototype.state = function () { return this.json('lt_state'); };
Game.prototype.next = function (route) { return this.json('lt_continuations', route.join(' ')); };
Game.prototype.play = function (n) { return this.attempt('lt_play', n); };
Game.prototype.setPosition = function (setup) { return this.attempt('lt_set_position', setup || ''); };
Game.prototype.loadRecord = function (text) { return this.json('lt_load_record', text); };
Game.prototype.goto = function (ply) { this.engine.call('lt_goto', [this.h, ply]); };
Game.prototype.explain = function (n) { return this.engine.call('lt_explain', [this.h], n).out; };
Game.prototype.sowSteps = function (hole) { return this.json('lt_sow_steps', hole); };
Game.prototype.think = function (nodes, ms, seed) {
  var r = this.engine.call('lt_think', [this.h, nodes, ms, seed]);
  return r.ok ? JSON.parse(r.out) : null;
};
Game.prototype.drop = function () { this.engine.ex.lt_drop(this.h); };

/* Small DOM helpers */

function el(tag, attrs, text) {
  var e = document.createElement(tag);
  for (var k in attrs || {}) if (attrs[k] != null) e.setAttribute(k, attrs[k]);
  if (text != null) e.textContent = text;
  return e;
}
function svgEl(tag, attrs) {
  var e = document.createElementNS(SVG, tag);
  for (var k in attrs || {}) e.setAttribute(k, attrs[k]);
  return e;
}
function button(label, action) {
  return el('button', { type: 'button', 'data-action': action }, label);
}
function plural(n, word) {
  return n + ' ' + (n === 1 ? word : /man$/.test(word) ? word.slice(0, -2) + 'en' : word + 's');
}
// A side's title is a name ("White") or a plural ("Goats"), and the verb agrees with it.
function agree(title, one, many) {
  return /s$/.test(title) ? many : one;
}

/* The widget */

function Board(slot, data, engine) {
  this.slot = slot;
  this.data = data;
  this.engine = engine;
  this.records = data.records || [];
  this.record = null;      // the record being replayed (its JSON from the engine, plus its entry)
  this.recordEntry = null;
  this.diverged = false;   // the line left the record's moves
  this.puzzle = null;      // {solved, revealed} when the record is a puzzle
  this.route = [];         // points clicked so far for the move being built
  this.choices = null;     // complete moves to choose between
  this.busy = false;       // an animation or the computer is running
  this.computer = -1;      // the side the computer plays, or -1
  this.timer = null;
  this.build();
  this.setRuleset(data.ruleset);
  this.restoreFromHash();
}

Board.prototype.build = function () {
  // Elements and words are in the page (item.html, template.board-ui).
  var root = this.slot.querySelector('template.board-ui').content.firstElementChild.cloneNode(true), self = this;
  var q = function (c) { return root.querySelector(c); };
  this.root = root;
  this.rulesetSelect = q('#lt-ruleset');
  this.recordSelect = q('#lt-record');
  this.computerSelect = q('#lt-computer');
  this.question = q('.lt-question');
  this.rulesLink = q('.lt-rules-link');
  this.figure = q('.lt-figure');
  this.status = q('.lt-status');
  this.counts = q('.lt-counts');
  this.message = q('.lt-message');
  this.choiceBox = q('.lt-choices');
  this.comment = q('.lt-comment');
  this.movesHeading = q('.lt-moves-heading');
  this.movesBox = q('.lt-moves');
  this.speed = q('.lt-speed');
  this.scrubber = q('.lt-scrubber');
  this.help = q('.lt-help');
  this.live = q('[aria-live]');
  this.linkField = q('.lt-link');
  this.buttons = {};
  root.querySelectorAll('button').forEach(function (b) { self.buttons[b.getAttribute('data-action')] = b; });
  this.labelsButton = this.buttons.labels;
  this.setLabels(storedLabels(), false);

  root.addEventListener('click', function (e) { self.guard(function () { self.onClick(e); }); });
  root.addEventListener('keydown', function (e) { self.guard(function () { self.onKey(e); }); });
  var on = function (target, type, fn) { target.addEventListener(type, function () { self.guard(fn); }); };
  on(this.scrubber, 'input', function () { self.stopAuto(); self.jump(+self.scrubber.value); });
  on(this.rulesetSelect, 'change', function () {
    self.selectRecord(null);
    self.setRuleset(self.rulesetSelect.value);
    self.updateHash();
  });
  on(this.recordSelect, 'change', function () { self.selectRecord(self.recordSelect.value || null); self.updateHash(); });
  on(this.computerSelect, 'change', function () { self.computer = +self.computerSelect.value; self.render(); self.maybeComputer(); });
  // A link on the page (or an address typed) to another record, ruleset or line of this board changes only the
  // hash, so the page does not load again: the board follows the address itself. Its own address updates use
  // replaceState, which fires no hashchange.
  on(window, 'hashchange', function () { if (!self.busy) self.restoreFromHash(); });

  var figure = this.slot.querySelector('.board-figure');
  if (figure) { figure.replaceChildren(root); } else { this.slot.append(root); }
  var note = this.slot.querySelector(':scope > .note');
  if (note) note.hidden = true;
  var lists = this.slot.querySelector('.board-records');
  if (lists) lists.hidden = true;
};

// Storage may throw (a page from disk).
function storedLabels() {
  try { return localStorage.getItem('ludotheca-labels') === 'on'; } catch (e) { return false; }
}

Board.prototype.setLabels = function (on, keep) {
  this.root.setAttribute('data-labels', on ? 'on' : 'off');
  this.labelsButton.setAttribute('aria-pressed', String(on));
  if (keep) try { localStorage.setItem('ludotheca-labels', on ? 'on' : 'off'); } catch (e) { /* this page only */ }
  this.fitWidth();
};

/* The narrowest the board is drawn before it scrolls inside its figure (a long board, 4 x 40 Tchouba, keeps
   this width). A board with text on it keeps 65% of its scale: a sowing board, whose counts (17 units) stay
   11 px or more, and any board while its names are shown. A points-and-lines board without them has no text and
   goes down to 55%, where a point's hit circle (44 units) is still 24 px across, the smallest target WCAG 2.2
   allows: that lets a board of eight columns fit a phone 360 px wide. */
Board.prototype.fitWidth = function () {
  if (!this.svg) return;
  var text = this.info.family === 'sowing' || this.root.getAttribute('data-labels') === 'on';
  this.svg.style.minWidth = Math.round(this.boardWidth * (text ? 0.65 : 0.55)) + 'px';
};

// Should the engine trap all the same (a bug: it refuses bad input with errors), say so on the board rather
// than leave it silently dead.
Board.prototype.guard = function (fn) {
  try {
    fn();
  } catch (err) {
    this.busy = false;
    this.flash('The board stopped working (' + err.message + '); reloading the page starts it again.');
    if (window.console) console.warn('ludotheca board: ' + err.message);
  }
};

/* rulesets and records */

Board.prototype.setRuleset = function (name) {
  if (this.game) this.game.drop();
  this.cancelMove();
  this.game = this.engine.newGame(this.data.rules, name);
  var info = this.game.info;
  this.info = info;
  this.family = info.family;
  this.root.setAttribute('data-ruleset', info.ruleset);
  this.root.setAttribute('data-family', info.family);
  this.labelsButton.textContent = info.family === 'sowing' ? 'Show hole numbers' : 'Show point names';
  var help = this.slot.querySelector('.board-help [data-family="' + info.family + '"]');
  this.help.textContent = help ? help.textContent : '';
  this.help.hidden = !help;
  var self = this;
  this.rulesetSelect.replaceChildren();
  info.rulesets.forEach(function (r) {
    var o = el('option', { value: r.name }, r.title + ' (' + r.type + ')');
    if (r.name === info.ruleset) o.selected = true;
    self.rulesetSelect.append(o);
  });
  this.rulesetSelect.parentNode.hidden = info.rulesets.length < 2;
  var section = document.getElementById('ruleset-' + info.ruleset.toLowerCase());
  var current = info.rulesets.filter(function (r) { return r.name === info.ruleset; })[0];
  this.rulesLink.hidden = !section || !current;
  if (section && current) {
    this.rulesLink.href = '#' + section.id;
    this.rulesLink.textContent = 'The rules: ' + current.title;
  }
  this.recordSelect.replaceChildren(el('option', { value: '' }, 'Free play from the start'));
  this.records.forEach(function (r) {
    if (r.ruleset && r.ruleset !== info.ruleset) return;
    var label = (r.title || r.id) + ' (' + (r.kind || 'record') + (byComputer(r) ? ', ' + BY_COMPUTER : '') +
      (r.source ? ', ' + r.source : '') + ')';
    self.recordSelect.append(el('option', { value: r.id }, label));
  });
  this.computerSelect.replaceChildren(el('option', { value: '-1' }, 'nobody'));
  info.sides.forEach(function (s, i) { self.computerSelect.append(el('option', { value: String(i) }, s.title)); });
  this.computer = -1;
  this.drawBoard();
  this.render();
};

// As the record's Players tag says.
var BY_COMPUTER = 'the computer playing both sides';
function byComputer(entry) {
  return /^\[Players "[^"\n]*computer player/m.test(entry.text || '');
}

Board.prototype.selectRecord = function (id) {
  this.stopAuto();
  this.cancelMove();
  this.record = null; this.recordEntry = null; this.puzzle = null; this.diverged = false;
  this.question.hidden = true;
  var entry = null;
  for (var i = 0; i < this.records.length; i++) if (this.records[i].id === id) entry = this.records[i];
  if (entry && entry.ruleset && entry.ruleset !== this.info.ruleset) this.setRuleset(entry.ruleset);
  this.recordSelect.value = entry ? entry.id : '';
  if (!entry) {
    this.game.setPosition('');
    this.render();
    return;
  }
  try {
    this.record = this.game.loadRecord(entry.text);
  } catch (err) {
    this.flash('This record cannot be replayed: ' + err.message);
    this.game.setPosition('');
    this.render();
    return;
  }
  this.recordEntry = entry;
  var tags = {};
  this.record.tags.forEach(function (t) { tags[t[0]] = t[1]; });
  if (entry.kind === 'puzzle') {
    // Wrong lines (the Wrong tag, lines joined by ';') are played out to their refutation when chosen.
    this.puzzle = { solved: false, revealed: false, pos: tags.Position, wrong: (tags.Wrong || '').split(';') };
    this.question.hidden = false;
    this.question.textContent = 'Puzzle: ' + (tags.Question || 'find the solution.');
  }
  this.render();
};

/* drawing */

Board.prototype.drawBoard = function () {
  var info = this.info, pts = info.points;
  var minX = Infinity, maxX = -Infinity, minY = Infinity, maxY = -Infinity;
  pts.forEach(function (p) {
    minX = Math.min(minX, p.x); maxX = Math.max(maxX, p.x);
    minY = Math.min(minY, p.y); maxY = Math.max(maxY, p.y);
  });
  if (!pts.length) { minX = maxX = minY = maxY = 0; }
  var w = (maxX - minX) * UNIT + 2 * MARGIN, h = (maxY - minY) * UNIT + 2 * MARGIN;
  var at = function (p) { return [(p.x - minX) * UNIT + MARGIN, (maxY - p.y) * UNIT + MARGIN]; };
  var svg = svgEl('svg', { class: 'board ' + info.family, viewBox: '0 0 ' + w + ' ' + h, role: 'group',
    'aria-label': info.game + ': the board; arrow keys move between ' + (info.family === 'sowing' ? 'holes' : 'points') });
  svg.style.maxWidth = Math.round(w) + 'px';
  this.boardWidth = w;
  this.root.classList.toggle('lt-wide', w > 1200);
  if (info.family === 'sowing') {
    svg.append(svgEl('rect', { class: 'frame', x: 4, y: 4, width: w - 8, height: h - 8, rx: 18 }));
    svg.append(svgEl('line', { class: 'divider', x1: 12, y1: h / 2, x2: w - 12, y2: h / 2 }));
  } else {
    var lines = svgEl('g', { class: 'lines' });
    info.lines.forEach(function (line) {
      var c = line.map(function (i) { var q = at(pts[i]); return q[0].toFixed(1) + ',' + q[1].toFixed(1); });
      if (c.length >= 2) lines.append(svgEl('polyline', { points: c.join(' ') }));
    });
    svg.append(lines);
  }
  var group = svgEl('g', { class: 'points' });
  // Names for the eye only (aria-labels name the points): a hole's number above its seeds; a point's name in
  // its first corner clear of pieces and names (up right, down left, up left, down right), else the roomiest,
  // anchored on the point's side so that a wide name grows away from its piece.
  var labels = svgEl('g', { class: 'lt-labels', 'aria-hidden': 'true' });
  var taken = pts.map(function (p) { var q = at(p); return [q[0], q[1], 16]; });
  this.pointEls = {};
  this.coords = {};
  var self = this;
  pts.forEach(function (p, i) {
    var q = at(p), label = svgEl('text', { x: q[0], y: q[1] - 10 });
    label.textContent = info.family === 'sowing' ? p.name.slice(1) : p.name;
    labels.append(label);
    if (info.family !== 'sowing') {
      var wd = 8 * p.name.length, best = [1, -1], score = -Infinity;
      [[1, -1], [-1, 1], [-1, -1], [1, 1]].forEach(function (d) {
        var cx = q[0] + d[0] * (17 + wd / 2), cy = q[1] + d[1] * 10, near = Infinity;
        if (score > 1 || cx < wd / 2 + 2 || cx > w - wd / 2 - 2 || cy < 9 || cy > h - 7) return;
        taken.forEach(function (o, j) { if (j !== i) near = Math.min(near, Math.hypot(o[0] - cx, o[1] - cy) - o[2] - wd / 2); });
        if (near > score) { score = near; best = d; }
      });
      taken.push([q[0] + best[0] * (17 + wd / 2), q[1] + best[1] * 10, wd / 2]);
      label.setAttribute('x', q[0] + best[0] * 17);
      label.setAttribute('y', q[1] + best[1] * 10 + 4);
      if (best[0] < 0) label.setAttribute('class', 'lt-end');
    }
    var g = svgEl('g', { 'data-point': p.name, role: 'button', tabindex: i === 0 ? '0' : '-1' });
    if (info.family === 'sowing') {
      var owner = p.name.charAt(0) === 'S' ? 0 : 1;
      g.append(svgEl('circle', { class: 'hole side-' + owner, cx: q[0], cy: q[1], r: 24 }));
      var t = svgEl('text', { x: q[0], y: q[1] + 6, 'text-anchor': 'middle' });
      g.append(t);
    } else {
      g.append(svgEl('circle', { class: 'lt-hit', cx: q[0], cy: q[1], r: 22 }));
      g.append(svgEl('circle', { class: 'point', cx: q[0], cy: q[1], r: 4 }));
    }
    group.append(g);
    self.pointEls[p.name] = g;
    self.coords[p.name] = q;
  });
  svg.append(group, labels);
  this.svg = svg;
  this.fitWidth();
  this.figure.replaceChildren(svg);
  this.focusName = pts.length ? pts[0].name : null;
};

Board.prototype.sideTitle = function (s) {
  var side = this.info.sides[s];
  return side ? side.title : 'Side ' + (s + 1);
};

Board.prototype.kindTitle = function (k) {
  var kind = this.info.kinds[k];
  return kind ? kind.title : 'piece';
};

// Discs for the first side, squares for the second, a letter for every kind but the first: not colour alone.
Board.prototype.drawPieces = function (board) {
  var self = this, info = this.info;
  info.points.forEach(function (p, i) {
    var g = self.pointEls[p.name], q = self.coords[p.name];
    var old = g.querySelector('.lt-piece');
    if (old) old.remove();
    if (info.family === 'sowing') {
      var n = board[i] || 0;
      g.querySelector('text').textContent = String(n);
      g.setAttribute('aria-label', p.name + ': ' + plural(n, 'seed'));
      return;
    }
    var v = board[i];
    var label = p.name + ': empty';
    if (v >= 0) {
      var side = v >> 4, kind = v & 15;
      var piece = svgEl('g', { class: 'lt-piece' });
      if (side === 0) piece.append(svgEl('circle', { class: 'piece side-0', cx: q[0], cy: q[1], r: 15 }));
      else piece.append(svgEl('rect', { class: 'piece side-1', x: q[0] - 13, y: q[1] - 13, width: 26, height: 26, rx: 3 }));
      if (kind > 0) {
        var t = svgEl('text', { class: 'lt-kind side-' + side, x: q[0], y: q[1] + 5, 'text-anchor': 'middle' });
        t.textContent = self.kindTitle(kind).charAt(0).toUpperCase();
        piece.append(t);
      }
      g.append(piece);
      label = p.name + ': ' + self.sideTitle(side) + ' ' + self.kindTitle(kind).toLowerCase();
    }
    g.setAttribute('aria-label', label);
  });
};

/* state and rendering */

Board.prototype.mode = function () {
  if (this.puzzle) return 'puzzle';
  if (this.record && !this.diverged) return 'replay';
  return 'play';
};

Board.prototype.render = function () {
  var st = this.game.state();
  this.st = st;
  var root = this.root, self = this;
  root.setAttribute('data-ply', String(st.ply));
  root.setAttribute('data-length', String(st.length));
  root.setAttribute('data-position', st.setup);
  root.setAttribute('data-to-move', String(st.toMove));
  root.setAttribute('data-outcome', st.outcome || '');
  root.setAttribute('data-mode', this.mode());
  root.setAttribute('data-record', this.recordEntry ? this.recordEntry.id : '');
  root.setAttribute('data-route', this.route.join(' '));
  if (this.puzzle) root.setAttribute('data-solved', this.puzzle.solved ? 'true' : 'false');
  else root.removeAttribute('data-solved');
  this.drawPieces(st.board);

  if (st.outcome) {
    this.status.textContent = 'Game over: ' + this.resultText(st.outcome) + '.';
  } else {
    this.status.textContent = this.sideTitle(st.toMove) + ' to move' +
      (this.computer === st.toMove ? ' (the computer)' : '') + '.';
  }
  // "Taken by", so that it cannot be read as how many each side lost.
  var parts = [(this.family === 'sowing' ? 'Seeds' : 'Pieces') + ' taken by ' + this.sideTitle(0) + ': ' +
    st.captured[0] + '; by ' + this.sideTitle(1) + ': ' + st.captured[1] + '.'];
  st.hand.forEach(function (kinds, s) {
    var inHand = [];
    kinds.forEach(function (n, k) { if (n > 0) inHand.push(plural(n, self.kindTitle(k).toLowerCase())); });
    if (inHand.length) parts.push(self.sideTitle(s) + ' in hand: ' + inHand.join(', ') + '.');
  });
  if (st.huffable && st.huffable.length && !st.outcome) {
    parts.push(this.sideTitle(st.toMove) + ' may huff (remove) ' + st.huffable.join(', ') +
      ' with its move: build the move, then choose the huff.');
  }
  this.counts.textContent = parts.join(' ');

  var hideMoves = this.puzzle && !this.puzzle.solved && !this.puzzle.revealed;
  var moves = st.line, box = this.movesBox, scrolled = box.scrollTop;
  box.replaceChildren();
  if (!hideMoves) {
    moves.forEach(function (n, i) {
      var li = el('li');
      var b = el('button', { type: 'button', 'data-action': 'goto', 'data-ply': String(i + 1) },
        (i % 2 === 0 ? (i / 2 + 1) + '. ' : '') + n + (self.annotation(i) || ''));
      if (i + 1 === st.ply) { b.setAttribute('aria-current', 'step'); li.className = 'current'; }
      li.append(b);
      self.movesBox.append(li);
    });
  }
  if (this.mode() === 'replay' && this.record.result && st.ply === st.length) {
    box.append(el('li', { class: 'lt-result' }, this.record.result));
  }
  this.movesHeading.textContent = 'Moves' + (this.recordEntry && byComputer(this.recordEntry) ? ' (' + BY_COMPUTER + ')' : '');
  this.movesHeading.hidden = !box.children.length;
  // The current move is kept in sight by scrolling the list alone: scrollIntoView would scroll the page too.
  box.scrollTop = scrolled;
  var current = box.querySelector('.current');
  if (current) {
    var outer = box.getBoundingClientRect(), inner = current.getBoundingClientRect();
    if (inner.top < outer.top) box.scrollTop += inner.top - outer.top;
    else if (inner.bottom > outer.bottom) box.scrollTop += inner.bottom - outer.bottom;
  }
  this.comment.textContent = this.commentAt(st.ply);

  var b = this.buttons;
  b.first.disabled = b.back.disabled = st.ply === 0;
  b.forward.disabled = b.last.disabled = st.ply >= st.length || hideMoves;
  b.auto.disabled = st.length === 0 || hideMoves;
  b.undo.disabled = st.ply === 0;
  b.redo.disabled = st.ply >= st.length || hideMoves;
  b.restart.disabled = st.ply === 0;
  b['to-record'].hidden = !(this.record && this.diverged);
  b.reveal.hidden = !this.puzzle || this.puzzle.solved || this.puzzle.revealed;
  var canPass = false;
  if (this.family === 'lines' && !st.outcome) {
    var c = this.game.next([]);
    canPass = c.complete.indexOf('pass') >= 0;
  }
  b.pass.hidden = !canPass;
  this.scrubber.max = String(st.length);
  this.scrubber.value = String(st.ply);
  this.scrubber.disabled = st.length === 0 || hideMoves;
  this.scrubber.setAttribute('aria-valuetext', 'move ' + st.ply + ' of ' + st.length);
  this.highlight();
};

Board.prototype.resultText = function (o) {
  if (o === '1-0' || o === '0-1') {
    var winner = this.sideTitle(o === '1-0' ? 0 : 1);
    return winner + ' ' + agree(winner, 'wins', 'win') + ' (' + o + ')';
  }
  return 'a draw (1/2-1/2)';
};

Board.prototype.annotation = function (i) {
  if (!this.record || this.diverged || !this.record.moves[i]) return '';
  return this.record.moves[i].a;
};

Board.prototype.commentAt = function (ply) {
  // A wrong line shown (puzzle.back set) has no comments: the record's are the solution's.
  if (!this.record || this.diverged || (this.puzzle && this.puzzle.back != null)) return '';
  if (ply === 0) return this.record.intro || '';
  var m = this.record.moves[ply - 1];
  return m && m.c ? m.c : '';
};

Board.prototype.highlight = function () {
  var self = this;
  Object.keys(this.pointEls).forEach(function (n) {
    self.pointEls[n].classList.remove('lt-last', 'lt-selected', 'lt-target', 'lt-huffable');
  });
  (this.st.huffable || []).forEach(function (n) { if (self.pointEls[n]) self.pointEls[n].classList.add('lt-huffable'); });
  var st = this.st;
  if (st.ply > 0) {
    this.movePoints(st.line[st.ply - 1], st.toMove === 0 ? 1 : 0).forEach(function (n) {
      if (self.pointEls[n]) self.pointEls[n].classList.add('lt-last');
    });
  }
  this.route.forEach(function (n) { if (self.pointEls[n]) self.pointEls[n].classList.add('lt-selected'); });
  (this.targets || []).forEach(function (n) { if (self.pointEls[n]) self.pointEls[n].classList.add('lt-target'); });
};

Board.prototype.movePoints = function (n, mover) {
  if (this.family === 'sowing') return [this.holeOf(n, mover)];
  var body = n.replace(/^~[^/]*\//, '');
  if (body === 'pass') return [];
  body = body.replace(/^[^@]*@/, '');
  return body.split(/[-x]/);
};

/* navigation */

Board.prototype.jump = function (ply) {
  var b = this.unrefute();
  if (b != null && !this.puzzle.revealed) ply = Math.min(ply, b);
  if (this.puzzle && !this.puzzle.solved && !this.puzzle.revealed && ply > this.st.ply) {
    this.refuse('Play the move yourself, or reveal the solution.');
    return;
  }
  this.cancelMove();
  this.flash('');
  this.game.goto(Math.max(0, ply));
  this.render();
  this.updateHash();
  this.announcePosition();
};

Board.prototype.announcePosition = function () {
  var st = this.st;
  var text = st.ply === 0 ? 'Start position.' : 'After move ' + st.ply + ', ' + st.line[st.ply - 1] + '.';
  var c = this.commentAt(st.ply);
  if (c) text += ' ' + c;
  if (st.outcome) text += ' ' + this.resultText(st.outcome) + '.';
  this.say(text);
};

Board.prototype.say = function (text) {
  // Emptied first so that the same words said twice are announced twice.
  var live = this.live;
  live.textContent = '';
  setTimeout(function () { live.textContent = text; }, 30);
};

Board.prototype.flash = function (text) {
  this.message.textContent = text;
  if (!text) this.linkField.hidden = true;
  this.root.setAttribute('data-message', text);
};

Board.prototype.toggleAuto = function () {
  if (this.timer) { this.stopAuto(); return; }
  var self = this;
  if (this.st.ply >= this.st.length) this.jump(0);
  this.buttons.auto.textContent = 'Stop';
  this.buttons.auto.setAttribute('aria-pressed', 'true');
  var step = function () {
    if (self.st.ply >= self.st.length) { self.stopAuto(); return; }
    self.jump(self.st.ply + 1);
    self.timer = setTimeout(step, +self.speed.value);
  };
  this.timer = setTimeout(step, reducedMotion ? 0 : +this.speed.value / 2);
};

Board.prototype.stopAuto = function () {
  if (this.timer) clearTimeout(this.timer);
  this.timer = null;
  this.buttons.auto.textContent = 'Autoplay';
  this.buttons.auto.setAttribute('aria-pressed', 'false');
};

/* the address: #record=<id>&ply=<n>, or the moves played from the record's or ruleset's start, &line=<m>_<m> */

Board.prototype.updateHash = function () {
  var e = this.recordEntry, st = this.st, p = [];
  if (e) p.push('record=' + encodeURIComponent(e.id));
  else if (this.info.rulesets[1]) p.push('ruleset=' + encodeURIComponent(this.info.ruleset));
  if (e && !this.diverged) p.push('ply=' + st.ply);
  else if (st.ply && !this.puzzle) p.push('line=' + encodeURIComponent(st.line.slice(0, st.ply).join('_')));
  try {
    if (p[0] || /(^#|&)(line|record)=/.test(location.hash)) history.replaceState(null, '', p[0] ? '#' + p.join('&') : location.pathname);
  } catch (x) { /* a sandboxed page: no link */ }
};

Board.prototype.restoreFromHash = function () {
  var params = new URLSearchParams(location.hash.slice(1)), ruleset = params.get('ruleset'), record = params.get('record');
  var line = params.get('line'), ply = +params.get('ply'), rec, k = 0;
  if (ruleset && ruleset !== this.info.ruleset) {
    try { this.setRuleset(ruleset); } catch (e) { return; }
  }
  if (record) this.selectRecord(record);
  rec = this.record;
  if (this.puzzle || record && !rec) return;
  if (!line) { if (rec && ply > 0) this.jump(ply); return; }
  line = line.split('_');
  this.game.goto(0);
  // A line that does not replay (an illegal move) is dropped quietly.
  if (line.some(this.game.play, this.game)) { this.selectRecord(record); return; }
  if (rec) {
    while (rec.moves[k] && rec.moves[k].n === line[k]) k++;
    this.diverged = k < line.length;
    this.divergedAt = k;
  }
  this.render();
};

// To the clipboard where the browser allows it, else into a field, selected, to copy.
Board.prototype.copyLink = function (b) {
  this.updateHash();
  var self = this, f = this.linkField, c = navigator.clipboard, say = function (w) { self.flash(b.getAttribute('data-' + w)); };
  var select = function () { f.hidden = false; f.focus(); f.select(); say('select'); };
  f.value = location.href;
  f.hidden = true;
  if (c) c.writeText(f.value).then(function () { say('done'); }, select); else select();
};

/* events */

Board.prototype.onClick = function (e) {
  var t = e.target.closest('[data-action], [data-point]');
  if (!t || !this.root.contains(t)) return;
  if (t.hasAttribute('data-point')) { this.focusPoint(t.getAttribute('data-point'), false); this.clickPoint(t.getAttribute('data-point')); return; }
  var a = t.getAttribute('data-action'), st = this.st;
  // Labels change nothing in the game: they may be toggled at any time, even in autoplay.
  if (a === 'labels') { this.setLabels(t.getAttribute('aria-pressed') !== 'true', true); return; }
  if (a === 'link') { this.copyLink(t); return; }
  // While seeds are being sown or the computer thinks, the line must not move under them.
  if (this.busy) return;
  if (a !== 'auto') this.stopAuto();
  switch (a) {
    case 'first': this.jump(0); break;
    case 'back': this.jump(st.ply - 1); break;
    case 'forward': this.jump(st.ply + 1); break;
    case 'last': this.jump(st.length); break;
    case 'auto': this.toggleAuto(); break;
    case 'goto': this.jump(+t.getAttribute('data-ply')); break;
    case 'undo': this.jump(st.ply - (this.computer >= 0 && st.ply > 1 ? 2 : 1)); break;
    case 'redo': this.jump(st.ply + 1); break;
    case 'restart': this.jump(0); break;
    case 'pass': this.commit(['pass']); break;
    case 'to-record': this.backToRecord(); break;
    case 'reveal': this.revealSolution(); break;
    case 'choose': this.playMove(t.getAttribute('data-move')); break;
    case 'cancel-choice': this.cancelMove(); this.render(); break;
  }
};

Board.prototype.onKey = function (e) {
  var t = e.target;
  var onBoard = t.closest && t.closest('[data-point]');
  if (onBoard) { this.boardKey(e, t.getAttribute('data-point')); return; }
  var tag = t.tagName;
  if (tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA' || this.busy) return;
  var st = this.st, handled = true;
  switch (e.key) {
    case 'ArrowLeft': this.stopAuto(); this.jump(st.ply - 1); break;
    case 'ArrowRight': this.stopAuto(); this.jump(st.ply + 1); break;
    case 'Home': this.stopAuto(); this.jump(0); break;
    case 'End': this.stopAuto(); if (!(this.puzzle && !this.puzzle.solved)) this.jump(st.length); break;
    case ' ':
      if (tag === 'BUTTON') { handled = false; break; }
      this.toggleAuto(); break;
    case 'Escape': this.cancelMove(); this.render(); break;
    default: handled = false;
  }
  if (handled) e.preventDefault();
};

Board.prototype.boardKey = function (e, name) {
  var dirs = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
  if (dirs[e.key]) {
    e.preventDefault();
    var d = dirs[e.key], from = this.coords[name], best = null, bestScore = Infinity, self = this;
    Object.keys(this.coords).forEach(function (n) {
      var q = self.coords[n], dx = q[0] - from[0], dy = q[1] - from[1];
      var along = dx * d[0] + dy * d[1], across = Math.abs(dx * d[1] - dy * d[0]);
      if (along <= 0.5 || across > along * 1.5) return;
      var score = along + 2 * across;
      if (score < bestScore) { bestScore = score; best = n; }
    });
    if (best) this.focusPoint(best, true);
  } else if (e.key === 'Enter' || e.key === ' ') {
    e.preventDefault();
    this.clickPoint(name);
  } else if (e.key === 'Escape') {
    this.cancelMove();
    this.render();
  }
};

Board.prototype.focusPoint = function (name, move) {
  var self = this;
  Object.keys(this.pointEls).forEach(function (n) { self.pointEls[n].setAttribute('tabindex', n === name ? '0' : '-1'); });
  this.focusName = name;
  if (move) this.pointEls[name].focus();
};

/* playing by clicks */

Board.prototype.cancelMove = function () {
  this.route = [];
  this.targets = [];
  this.choices = null;
  if (this.choiceBox) { this.choiceBox.hidden = true; this.choiceBox.replaceChildren(); }
};

Board.prototype.refuse = function (text) {
  this.flash(text);
  this.say(text);
  this.root.setAttribute('data-refused', text);
};

Board.prototype.clickPoint = function (name) {
  if (this.busy) return;
  this.stopAuto();
  var st = this.st;
  // A refusal of the last click must not stand beside this one's sowing or answer.
  this.root.removeAttribute('data-refused');
  this.flash('');
  if (this.unrefute() != null) { this.render(); st = this.st; }
  if (st.outcome) { this.refuse('The game is over: ' + this.resultText(st.outcome) + '.'); return; }
  if (this.computer === st.toMove) {
    // Reached by stepping back through the line: let the computer move now.
    this.refuse('It is the computer\'s turn.');
    this.maybeComputer();
    return;
  }
  if (this.puzzle && (this.puzzle.solved || this.puzzle.revealed)) { this.refuse('The puzzle is over: choose another game or free play.'); return; }
  if (this.family === 'sowing') this.clickHole(name); else this.clickLines(name);
};

Board.prototype.clickLines = function (name) {
  var route = this.route, st = this.st, c;
  if (route.length && name === route[route.length - 1]) {
    // The same point again: stop a chain that may stop here, or drop the selection.
    if (route.length === 1) { this.cancelMove(); this.flash(''); this.render(); return; }
    c = this.game.next(route);
    if (c.complete.length) this.commit(c.complete);
    else this.refuse('The chain must go on: the capture continues from ' + name + '.');
    return;
  }
  c = this.game.next(route.concat([name]));
  if (!c.next.length && !c.complete.length) {
    if (route.length === 1) {
      var again = this.game.next([name]);
      if (again.next.length || again.complete.length) { this.cancelMove(); this.clickLines(name); return; }
    }
    this.refuse(this.reasonLines(route, name));
    return;
  }
  if (!c.next.length) { this.commit(c.complete); return; }
  this.route = route.concat([name]);
  this.targets = c.next;
  this.flash(this.route.length === 1
    ? 'Choose where the piece on ' + name + ' goes (highlighted).'
    : c.complete.length ? 'Click ' + name + ' again to stop here, or go on capturing.' : 'The capture goes on: choose the next landing.');
  this.render();
};

Board.prototype.reasonLines = function (route, name) {
  var st = this.st, v = st.board[this.pointIndex(name)];
  if (!route.length) {
    if (v < 0) {
      var hand = st.hand[st.toMove] || [];
      var any = hand.some(function (n) { return n > 0; });
      return any ? 'No piece may be placed on ' + name + ' now.' : name + ' is empty: choose one of ' + this.sideTitle(st.toMove) + '\'s pieces.';
    }
    if (v >> 4 !== st.toMove) return 'That piece is ' + this.sideTitle(v >> 4) + '\'s; it is ' + this.sideTitle(st.toMove) + '\'s turn.';
    var firsts = this.game.next([]).next;
    var why = this.game.explain(name + '-' + this.anyNeighbour(name));
    return 'The piece on ' + name + ' has no legal move' + (firsts.length ? ' now' : '') + (why ? ' (' + why + ')' : '') + '.';
  }
  var text = route.length === 1 && v < 0 ? route[0] + '-' + name : route.join('x') + 'x' + name;
  var reason = this.game.explain(text);
  return (reason || text + ' is not a legal move here') + '.';
};

Board.prototype.pointIndex = function (name) {
  return this.info.points.map(function (p) { return p.name; }).indexOf(name);
};

Board.prototype.anyNeighbour = function (name) {
  var info = this.info, idx = this.pointIndex(name);
  for (var i = 0; i < info.lines.length; i++) {
    var l = info.lines[i], j = l.indexOf(idx);
    if (j >= 0) return info.points[l[j + 1 < l.length ? j + 1 : j - 1]].name;
  }
  return name;
};

Board.prototype.clickHole = function (name) {
  var st = this.st, route = this.route, mine = st.toMove === 0 ? 'S' : 'N';
  if (!route.length) {
    if (name.charAt(0) !== mine) { this.refuse('Hole ' + name + ' is ' + this.sideTitle(mine === 'S' ? 1 : 0) + '\'s: ' + this.sideTitle(st.toMove) + ' sows from its own two rows.'); return; }
    var c = this.game.next([name]);
    if (!c.next.length && !c.complete.length) {
      var why = this.game.explain(name.slice(1));
      this.refuse((why || 'Hole ' + name + ' cannot be sown now') + '.');
      return;
    }
    var self = this;
    this.route = [name];
    this.animateSowing(name, function () {
      if (!c.next.length) { self.route = []; self.commit(c.complete); return; }
      self.targets = c.next;
      self.root.setAttribute('data-route', self.route.join(' '));
      self.flash('The last seed captures: choose the extra hole(s) to take (highlighted).');
      self.say('Choose the extra holes to capture.');
      self.highlight();
    });
    return;
  }
  if (this.targets.indexOf(name) < 0) { this.refuse('Choose one of the highlighted holes to capture.'); return; }
  var next = this.game.next(route.concat([name]));
  this.route = route.concat([name]);
  if (!next.next.length && next.complete.length) { this.route = []; this.commit(next.complete); return; }
  this.targets = next.next;
  this.highlight();
};

Board.prototype.animateSowing = function (hole, done) {
  var steps = this.game.sowSteps(hole) || [];
  var self = this, i = 0, delay = Math.max(20, Math.min(180, 2400 / Math.max(1, steps.length)));
  if (reducedMotion || !steps.length) { this.applySteps(steps, steps.length); done(); return; }
  this.flash('');
  this.busy = true;
  this.root.setAttribute('data-animating', 'true');
  var tick = function () {
    self.applySteps(steps, i + 1, i);
    i++;
    if (i < steps.length) setTimeout(tick, delay);
    else { self.busy = false; self.root.removeAttribute('data-animating'); done(); }
  };
  tick();
};

Board.prototype.applySteps = function (steps, upto, from) {
  for (var i = from || 0; i < upto; i++) {
    var g = this.pointEls[steps[i][1]];
    if (!g) continue;
    var t = g.querySelector('text');
    var n = steps[i][0] === '-' ? 0 : (+t.textContent || 0) + 1;
    t.textContent = String(n);
    g.classList.toggle('lt-sowing', true);
    if (i > 0) { var prev = this.pointEls[steps[i - 1][1]]; if (prev && prev !== g) prev.classList.remove('lt-sowing'); }
  }
  if (upto >= steps.length) {
    var self = this;
    Object.keys(this.pointEls).forEach(function (n) { self.pointEls[n].classList.remove('lt-sowing'); });
  }
};

Board.prototype.commit = function (moves) {
  if (moves.length === 1) { this.playMove(moves[0]); return; }
  var self = this;
  this.choices = moves;
  this.choiceBox.replaceChildren(el('p', null, 'Several moves fit: choose one.'));
  moves.forEach(function (m) {
    var b = button(m, 'choose');
    b.setAttribute('data-move', m);
    self.choiceBox.append(b);
  });
  this.choiceBox.append(button('Cancel', 'cancel-choice'));
  this.choiceBox.hidden = false;
  var first = this.choiceBox.querySelector('button');
  if (first) first.focus();
};

Board.prototype.playMove = function (n) {
  var self = this, st = this.st;
  if (this.puzzle && !this.checkPuzzleMove(n)) { this.cancelMove(); this.render(); return; }
  var mover = st.toMove;
  var err = this.game.play(n);
  this.cancelMove();
  if (err) { this.refuse(err); this.render(); return; }
  if (this.record && !this.diverged) {
    var after = this.game.state();
    var rec = this.record.moves;
    var same = after.line.length === rec.length && after.line.every(function (m, i) { return rec[i].n === m; });
    if (!same && !this.puzzle) { this.diverged = true; this.divergedAt = st.ply; }
  }
  this.flash('');
  this.render();
  this.updateHash();
  var who = this.sideTitle(mover), text = who + ' ' + agree(who, 'plays', 'play') + ' ' + n + '.';
  if (this.st.outcome) text += ' ' + this.resultText(this.st.outcome) + '.';
  this.say(text);
  if (this.puzzle) this.afterPuzzleMove();
  else this.maybeComputer();
};

/* the computer */

Board.prototype.maybeComputer = function () {
  var st = this.st, self = this;
  if (this.computer !== st.toMove || st.outcome || this.busy || this.puzzle) return;
  this.busy = true;
  this.root.setAttribute('data-thinking', 'true');
  var who = this.sideTitle(st.toMove);
  this.status.textContent = who + ' (the computer) ' + agree(who, 'is', 'are') + ' thinking…';
  setTimeout(function () { self.guard(function () {
    var t0 = performance.now();
    var answer = self.game.think(4000000, thinkMs(self.info), (Math.random() * 0x7fffffff) | 0);
    self.root.setAttribute('data-think-ms', String(Math.round(performance.now() - t0)));
    self.busy = false;
    self.root.removeAttribute('data-thinking');
    if (!answer) { self.render(); return; }
    var play = function () { self.playMove(answer.n); };
    if (self.family === 'sowing') self.animateSowing(self.holeOf(answer.n, st.toMove), play); else play();
  }); }, reducedMotion ? 0 : 100);
};

// The player reads its clock every 1,024 nodes and a node on a long sowing board can cost a third of a
// millisecond: bigger boards get less time, to answer within a second.
function thinkMs(info) {
  return info.family === 'sowing' ? Math.max(300, 700 - 5 * (info.holesPerSide || 0)) : 700;
}

Board.prototype.holeOf = function (n, side) {
  var m = /^(\d+)/.exec(n);
  return (side === 0 ? 'S' : 'N') + (m ? m[1] : '');
};

/* puzzles */

// A move is right when it is the solution's, or ends the game exactly as the solution's move does.
Board.prototype.checkPuzzleMove = function (n) {
  var st = this.st, sol = this.record.moves[st.ply];
  if (!sol) return true;
  if (sol.n === n) return true;
  var expected = this.outcomeAfter(sol.n), got = this.outcomeAfter(n);
  if (expected && got === expected) return true;
  if (this.refute(n)) return false;
  this.refuse('Not the solution: ' + n + ' is legal, but ' + (expected ? 'it does not ' + (expected === '1/2-1/2' ? 'draw' : 'win') + ' at once' : 'it is not the move the solution plays') + '. Try again, or reveal the solution.');
  return false;
};

Board.prototype.refute = function (n) {
  var st = this.st, self = this, p = this.puzzle, at = st.ply, w;
  for (var i = 0; i < p.wrong.length; i++) {
    w = p.wrong[i] && this.game.loadRecord('[Event "-"]\n[Kind "demonstration"]\n[Position "' + p.pos + '"]\n\n' + p.wrong[i])
      .moves.map(function (m) { return m.n; });
    if (w && w[at] === n && w.slice(0, at) + '' === st.line.slice(0, at) + '') {
      // The session holds the wrong line until unrefute() brings the puzzle's back (the next click or step).
      p.back = at;
      this.busy = true;
      var step = function (k) { self.guard(function () {
        // Another record or ruleset was chosen meanwhile: stop, and free the board.
        if (self.puzzle !== p) { self.busy = false; return; }
        self.game.goto(k);
        self.render();
        if (k < w.length) return setTimeout(step, reducedMotion ? 0 : 700, k + 1);
        self.busy = false;
        self.refuse(n + ' is refuted: ' + w.slice(at + 1).join(' ') + (self.st.outcome ? ', ' + self.resultText(self.st.outcome) : '') + '. Try again.');
      }); };
      step(at + 1);
      return true;
    }
  }
  this.game.loadRecord(this.recordEntry.text);
  this.game.goto(at);
};

Board.prototype.unrefute = function () {
  var p = this.puzzle, b = p && p.back;
  if (b == null) return b;
  p.back = null;
  this.game.loadRecord(this.recordEntry.text);
  this.game.goto(b);
  this.st = this.game.state();
  return b;
};

Board.prototype.outcomeAfter = function (n) {
  var ply = this.st.ply;
  if (this.game.play(n)) return null;
  var o = this.game.state().outcome;
  // Put the line back as it was: replay the record from its start, then return to this ply.
  this.game.loadRecord(this.recordEntry.text);
  this.game.goto(ply);
  return o;
};

Board.prototype.afterPuzzleMove = function () {
  var st = this.st, self = this;
  var done = st.outcome || st.ply >= this.record.moves.length || this.diverged;
  if (st.line.length !== this.record.moves.length || st.line.some(function (m, i) { return self.record.moves[i].n !== m; })) {
    // Another move that wins as the solution does.
    done = true;
  }
  if (done) {
    this.puzzle.solved = true;
    this.flash('Solved! ' + (this.commentAt(this.record.moves.length) || ''));
    this.say('Solved.');
    this.render();
    return;
  }
  this.flash('Right. ' + (this.commentAt(st.ply) || ''));
  setTimeout(function () {
    self.game.goto(st.ply + 1);
    self.render();
    self.announcePosition();
    if (self.st.ply >= self.record.moves.length) { self.puzzle.solved = true; self.flash('Solved!'); self.render(); }
  }, reducedMotion ? 0 : 500);
};

Board.prototype.revealSolution = function () {
  if (!this.puzzle) return;
  this.puzzle.revealed = true;
  this.jump(this.record.moves.length);
  this.flash('The solution: ' + this.record.moves.map(function (m) { return m.n; }).join(' ') + '.');
};

Board.prototype.backToRecord = function () {
  var id = this.recordEntry && this.recordEntry.id, at = this.divergedAt || 0;
  this.selectRecord(id);
  this.jump(at);
};

/* Start */

// The texts the page shows its readers (the rules file, each record as written) are not repeated in the
// board's data; they are read back from the page, where the parser has already unescaped them.
function textsFromPage(data, doc) {
  if (data.rules == null) {
    var rules = doc.querySelector('pre.rules-file');
    if (!rules) throw new Error('the rules file is neither in the board\'s data nor in the page');
    data.rules = rules.textContent;
  }
  var shown = Object.create(null);
  doc.querySelectorAll('pre.board-record').forEach(function (pre) {
    shown[pre.getAttribute('data-record')] = pre.textContent;
  });
  (data.records || []).forEach(function (r) {
    if (r.text != null) return;
    if (!(r.id in shown)) {
      throw new Error('the record ' + r.id + ' is neither in the board\'s data nor in the page');
    }
    r.text = shown[r.id];
  });
  return data;
}

function start() {
  var slots = document.querySelectorAll('[data-widget-slot="board"]');
  if (!slots.length) return;
  var t0 = performance.now();
  loadEngine().then(function (engine) {
    slots.forEach(function (slot) {
      var script = slot.querySelector('script.board-data');
      if (!script) return;
      try {
        var data = textsFromPage(JSON.parse(script.textContent), slot.ownerDocument);
        var board = new Board(slot, data, engine);
        board.root.setAttribute('data-ready-ms', String(Math.round(performance.now())));
        board.root.setAttribute('data-setup-ms', String(Math.round(performance.now() - t0)));
        board.root.setAttribute('data-ready', 'true');
      } catch (err) {
        slot.setAttribute('data-widget-error', err.message);
        if (window.console) console.warn('ludotheca board: ' + err.message);
      }
    });
  }, function (err) {
    if (window.console) console.warn('ludotheca board: ' + err.message);
  });
}

window.LudothecaBoard = { loadEngine: loadEngine };
// Unpacked and compiled while the rest of the page is read.
if (document.querySelector('script.board-data')) loadEngine().catch(function () { /* reported by start() */ });
if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
else start();
})();
