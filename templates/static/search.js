/* Search as you type, from the index in search-index.js (a classic script assigning window.LUDOTHECA_SEARCH,
   because pages opened from disk may not fetch files). The index is loaded the first time the box is used.
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

  function withIndex(then) {
    if (window.LUDOTHECA_SEARCH) { then(); return; }
    if (!loading) {
      loading = [];
      var script = document.createElement('script');
      script.src = root + 'search-index.js';
      script.onload = function () { var q = loading; loading = null; q.forEach(function (f) { f(); }); };
      document.head.appendChild(script);
    }
    if (loading) { loading.push(then); } else { then(); }
  }

  function hasWord(haystack, token) {
    return (' ' + haystack).indexOf(' ' + token) !== -1;
  }

  /* Every token must start a word of the document; title words count most. */
  function search(query) {
    var terms = tokens(query);
    if (terms.length === 0 || !window.LUDOTHECA_SEARCH) { return []; }
    var found = [];
    window.LUDOTHECA_SEARCH.docs.forEach(function (doc) {
      var score = 0;
      for (var i = 0; i < terms.length; i++) {
        var t = terms[i];
        if (fold(doc[0]).indexOf(t) === 0) { score += 30; }
        else if (hasWord(doc[3], t)) { score += 20; }
        else if (hasWord(doc[4], t)) { score += 4; }
        else { return; }
      }
      if (doc[2] === 'game' || doc[2] === 'board' || doc[2] === 'evidence') { score += 2; }
      found.push({ doc: doc, score: score });
    });
    found.sort(function (a, b) { return b.score - a.score || a.doc[0].localeCompare(b.doc[0]); });
    return found.map(function (f) { return f.doc; });
  }

  /* When the match came from another name, show that name too ("Terhuchu, also Terhüchü"). */
  function alsoKnownAs(doc, query) {
    var terms = tokens(query);
    var alts = doc[6] || [];
    for (var i = 0; i < alts.length; i++) {
      var folded = tokens(alts[i]).join(' ');
      if (terms.every(function (t) { return hasWord(folded, t); }) && !terms.every(function (t) { return fold(doc[0]).indexOf(t) !== -1; })) {
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

  function render() {
    var query = input.value;
    list.textContent = '';
    current = search(query).slice(0, 8);
    if (query.trim() === '') { close(); status.textContent = ''; return; }
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
    status.textContent = current.length === 0 ? 'No results' : current.length + ' suggestions; use the arrow keys to choose';
  }

  input.addEventListener('input', function () { withIndex(render); });
  input.addEventListener('focus', function () { withIndex(function () {}); });
  input.addEventListener('blur', function () { window.setTimeout(close, 150); });
  input.addEventListener('keydown', function (e) {
    var n = current.length;
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      if (list.hidden) { withIndex(render); }
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

  /* The results page: search/index.html?q=... */
  var page = document.querySelector('[data-search-page]');
  if (page) {
    var q = new URLSearchParams(window.location.search).get('q') || '';
    var count = page.querySelector('[data-search-count]');
    var out = page.querySelector('[data-search-list]');
    count.textContent = 'Type a word in the search box.';
    if (q) {
      input.value = q;
      withIndex(function () {
        var docs = search(q);
        count.textContent = docs.length + (docs.length === 1 ? ' result' : ' results') + ' for “' + q + '”';
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
          if (doc[5]) {
            var p = document.createElement('p');
            p.textContent = doc[5];
            li.appendChild(p);
          }
          out.appendChild(li);
        });
      });
    }
  }
})();
