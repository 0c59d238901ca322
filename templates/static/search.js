/* Search as you type, from the index in search-index.js and search-index/ (classic scripts, because pages
   opened from disk may not fetch files). The manifest is loaded the first time the box is used, and each query
   loads only the parts it needs.
   The box follows the ARIA combobox pattern: arrow keys move through the suggestions, Enter opens one, Escape
   closes the list. The same code fills the results of search/index.html?q=... */
(function () {
  'use strict';
  var form = document.querySelector('form.search');
  if (!form) { return; }
  var root = form.getAttribute('data-root') || '';
  var input = form.querySelector('input[role="combobox"]');
  var list = document.getElementById(input.getAttribute('aria-controls'));
  var status = document.getElementById('site-search-status');
  var active = -1;
  var current = [];
  var loading = null;

  /* Must fold exactly as src/archive/text.rs does. */
  var MARKS = /[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]/g;
  var SPECIAL = { 'ß': 'ss', 'æ': 'ae', 'œ': 'oe', 'ø': 'o', 'ł': 'l', 'đ': 'd', 'ı': 'i' };
  function fold(text) {
    return text.normalize('NFD').replace(MARKS, '').toLowerCase().replace(/[ßæœøłđı]/g, function (c) { return SPECIAL[c]; });
  }
  function tokens(text) {
    return fold(text).split(/[^\p{L}\p{M}\p{N}]+/u).filter(function (t) { return t.length > 0; });
  }

  /* The index comes in parts (see src/site/search.rs): the manifest search-index.js, then the one shard each
     query word needs and the chunks of the documents shown, each a script that calls
     window.LUDOTHECA_SEARCH_SHARD(name, data) when it runs. */
  var DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  var parts = {};
  var waiting = {};
  var wordPrefixes = null;
  var listPrefixes = null;

  window.LUDOTHECA_SEARCH_SHARD = function (name, data) {
    parts[name] = data;
  };

  /* Runs then() once every named part is in (a part that fails to load counts as empty). */
  function need(names, then) {
    var missing = names.filter(function (n) { return !(n in parts); });
    var left = missing.length;
    if (left === 0) { then(); return; }
    missing.forEach(function (name) {
      if (!waiting[name]) {
        waiting[name] = [];
        var script = document.createElement('script');
        script.src = root + (name === '' ? 'search-index.js' : 'search-index/' + name + '.js');
        var done = function () {
          if (!(name in parts)) { parts[name] = null; }
          var q = waiting[name];
          delete waiting[name];
          q.forEach(function (f) { f(); });
        };
        script.onload = done;
        script.onerror = done;
        document.head.appendChild(script);
      }
      waiting[name].push(function () { left--; if (left === 0) { then(); } });
    });
  }

  function withIndex(then) {
    if (window.LUDOTHECA_SEARCH) { parts[''] = window.LUDOTHECA_SEARCH; }
    need([''], function () {
      var manifest = window.LUDOTHECA_SEARCH;
      if (manifest && !wordPrefixes) {
        wordPrefixes = new Set(manifest.words);
        listPrefixes = new Set(manifest.prefixes);
      }
      then();
    });
  }

  /* Must name files exactly as src/site/search.rs does. */
  function stem(kind, prefix) {
    var out = kind + '-';
    Array.from(prefix).forEach(function (c) {
      out += /^[a-z0-9]$/.test(c) ? c : '_' + c.codePointAt(0).toString(16) + '_';
    });
    return out;
  }

  /* The one part a query word needs: the word shard of its longest listed prefix, or the list of the prefix
     that is the word itself; null when no indexed word starts with it. */
  function partFor(term) {
    var chars = Array.from(term);
    for (var k = chars.length; k >= 0; k--) {
      var prefix = chars.slice(0, k).join('');
      if (wordPrefixes.has(prefix)) { return stem('w', prefix); }
      if (listPrefixes.has(prefix)) { return k === chars.length ? stem('p', prefix) : null; }
    }
    return null;
  }

  /* Postings: gaps in base 32 (digits from 32 up carry five more bits), or '*' and six documents per digit. */
  function decode(text, score, into) {
    var i, v, b;
    if (text.charAt(0) === '*') {
      for (i = 1; i < text.length; i++) {
        v = DIGITS.indexOf(text.charAt(i));
        for (b = 0; b < 6; b++) {
          if (v & (1 << b)) { keep(into, (i - 1) * 6 + b, score); }
        }
      }
      return;
    }
    var next = 0;
    var acc = 0;
    for (i = 0; i < text.length; i++) {
      v = DIGITS.indexOf(text.charAt(i));
      if (v >= 32) { acc = acc * 32 + v - 32; continue; }
      var id = next + acc * 32 + v;
      keep(into, id, score);
      next = id + 1;
      acc = 0;
    }
  }
  function keep(into, id, score) {
    if (!(into.get(id) >= score)) { into.set(id, score); }
  }

  var SCORES = [30, 20, 4];
  function matches(term, name) {
    var found = new Map();
    var data = name ? parts[name] : null;
    if (!data) { return found; }
    var lists = function (l, from) { for (var i = from; i < l.length; i++) { decode(l[i], SCORES[i - from], found); } };
    if (name.charAt(0) === 'p') { lists(data, 0); return found; }
    data.forEach(function (entry) { if (entry[0].indexOf(term) === 0) { lists(entry, 1); } });
    return found;
  }

  /* Every query word must start a word of the document; a word starting the title counts most, then names
     (title and alternative titles), then the rest; items a little more than tags, places, people and sources.
     Ties keep the index's order, which is by title. Calls back with the ranked document numbers. */
  function search(query, then) {
    var terms = tokens(query);
    if (terms.length === 0) { then([]); return; }
    withIndex(function () {
      if (!window.LUDOTHECA_SEARCH) { then([]); return; }
      var names = terms.map(partFor);
      need(names.filter(function (n) { return n; }), function () {
        var per = terms.map(function (t, i) { return matches(t, names[i]); });
        var smallest = per.reduce(function (a, b) { return b.size < a.size ? b : a; });
        var items = window.LUDOTHECA_SEARCH.items;
        var found = [];
        smallest.forEach(function (_, id) {
          var score = id < items ? 2 : 0;
          for (var i = 0; i < per.length; i++) {
            var s = per[i].get(id);
            if (s === undefined) { return; }
            score += s;
          }
          found.push([id, score]);
        });
        found.sort(function (a, b) { return b[1] - a[1] || a[0] - b[0]; });
        then(found.map(function (f) { return f[0]; }));
      });
    });
  }

  /* The documents [title, url, kind, summary, alternatives, (their Latin readings)] of these numbers, from their
     chunks. */
  function documents(ids, then) {
    var size = window.LUDOTHECA_SEARCH.chunk;
    var chunks = [];
    ids.forEach(function (id) {
      var name = 'd-' + Math.floor(id / size);
      if (chunks.indexOf(name) === -1) { chunks.push(name); }
    });
    need(chunks, function () {
      then(ids.map(function (id) {
        var chunk = parts['d-' + Math.floor(id / size)];
        return (chunk && chunk[id % size]) || ['', '', '', '', []];
      }));
    });
  }

  function hasWord(haystack, token) {
    return (' ' + haystack).indexOf(' ' + token) !== -1;
  }

  /* When the match came from another name, show that name too ("Terhuchu, also Terhüchü"). A name in an Indic
     script is matched by its Latin reading too, which the document gives beside its names ("mogal" shows
     "also মোগল পাঠান"). */
  function alsoKnownAs(doc, query) {
    var terms = tokens(query);
    var alts = doc[4] || [];
    var latin = doc[5] || [];
    for (var i = 0; i < alts.length; i++) {
      var folded = tokens(alts[i]).join(' ');
      var read = latin[i] || '';
      if (terms.every(function (t) { return hasWord(folded, t) || hasWord(read, t); }) && !terms.every(function (t) { return fold(doc[0]).indexOf(t) !== -1; })) {
        return alts[i];
      }
    }
    return '';
  }

  var KINDS = { game: 'Game', board: 'Board', evidence: 'Evidence', tag: 'Tag', place: 'Place', person: 'Person', source: 'Source' };

  function close() {
    list.hidden = true;
    input.setAttribute('aria-expanded', 'false');
    input.removeAttribute('aria-activedescendant');
    active = -1;
  }

  function select(i) {
    var options = list.querySelectorAll('[role="option"]');
    options.forEach(function (o) { o.setAttribute('aria-selected', 'false'); });
    active = i;
    if (i >= 0 && options[i]) {
      options[i].setAttribute('aria-selected', 'true');
      input.setAttribute('aria-activedescendant', options[i].id);
      options[i].scrollIntoView({ block: 'nearest' });
    } else {
      input.removeAttribute('aria-activedescendant');
    }
  }

  function go(doc) {
    window.location.href = root + doc[1];
  }

  /* Queries answer in the order typed: an answer to an older query, arriving late, is dropped. */
  var asked = 0;
  function render() {
    var query = input.value;
    var ticket = ++asked;
    if (query.trim() === '') { list.textContent = ''; current = []; close(); status.textContent = ''; return; }
    search(query, function (ids) {
      documents(ids.slice(0, 8), function (docs) {
        if (ticket === asked) { show(query, docs); }
      });
    });
  }

  function show(query, docs) {
    /* The suggestion chosen with the arrow keys stays chosen when a later answer still lists it. */
    var chosen = active >= 0 && current[active] ? current[active][1] : null;
    list.textContent = '';
    current = docs;
    if (current.length === 0) {
      var none = document.createElement('li');
      none.className = 'empty';
      none.setAttribute('role', 'option');
      none.setAttribute('aria-disabled', 'true');
      none.id = 'site-search-none';
      none.textContent = 'Nothing found';
      list.appendChild(none);
    }
    current.forEach(function (doc, i) {
      var li = document.createElement('li');
      li.setAttribute('role', 'option');
      li.setAttribute('aria-selected', 'false');
      li.id = 'site-search-option-' + i;
      li.setAttribute('data-href', doc[1]);
      var title = document.createElement('span');
      title.textContent = doc[0];
      li.appendChild(title);
      var alt = alsoKnownAs(doc, query);
      var note = document.createElement('span');
      note.className = 'note';
      note.textContent = ' ' + (KINDS[doc[2]] || doc[2]) + (alt ? ', also ' + alt : '');
      li.appendChild(note);
      li.addEventListener('mousedown', function (e) { e.preventDefault(); go(doc); });
      list.appendChild(li);
    });
    list.hidden = false;
    input.setAttribute('aria-expanded', 'true');
    active = -1;
    for (var i = 0; i < current.length; i++) {
      if (current[i][1] === chosen) { select(i); }
    }
    status.textContent = current.length === 0 ? 'No results' : current.length + ' suggestions; use the arrow keys to choose';
  }

  input.addEventListener('input', render);
  input.addEventListener('focus', function () { withIndex(function () {}); });
  input.addEventListener('blur', function () { window.setTimeout(close, 150); });
  input.addEventListener('keydown', function (e) {
    var n = current.length;
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      if (list.hidden) { render(); }
      if (n > 0) { select(active + 1 >= n ? 0 : active + 1); }
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      if (n > 0) { select(active <= 0 ? n - 1 : active - 1); }
    } else if (e.key === 'Enter') {
      if (active >= 0 && current[active]) { e.preventDefault(); go(current[active]); }
    } else if (e.key === 'Escape') {
      if (!list.hidden) { e.preventDefault(); close(); } else { input.value = ''; }
    }
  });

  /* The results page: search/index.html?q=... shows the results a page at a time, so that a query matching
     most of a large catalog loads only the documents shown. */
  var page = document.querySelector('[data-search-page]');
  if (page) {
    var PAGE = 50;
    var q = new URLSearchParams(window.location.search).get('q') || '';
    var count = page.querySelector('[data-search-count]');
    var out = page.querySelector('[data-search-list]');
    var more = page.querySelector('[data-search-more]');
    count.textContent = 'Type a word in the search box.';
    if (q) {
      input.value = q;
      search(q, function (ids) {
        count.textContent = ids.length + (ids.length === 1 ? ' result' : ' results') + ' for “' + q + '”';
        var shown = 0;
        var next = function () {
          var batch = ids.slice(shown, shown + PAGE);
          shown += batch.length;
          documents(batch, function (docs) {
            docs.forEach(function (doc) {
              var li = document.createElement('li');
              var a = document.createElement('a');
              a.href = root + doc[1];
              a.textContent = doc[0];
              li.appendChild(a);
              var note = document.createElement('span');
              note.className = 'note';
              note.textContent = ' ' + (KINDS[doc[2]] || doc[2]);
              li.appendChild(note);
              if (doc[3]) {
                var p = document.createElement('p');
                p.textContent = doc[3];
                li.appendChild(p);
              }
              out.appendChild(li);
            });
            more.hidden = shown >= ids.length;
          });
        };
        more.addEventListener('click', next);
        next();
      });
    }
  }
})();
