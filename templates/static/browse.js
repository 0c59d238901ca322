/* Filters and sorting for the browse and rules tables, and filters for the map and the timeline, whose rows
   are the elements marked data-row (a map's markers are data-row="mark": filtered, not counted).
   Rows carry their facet values as data-f-<facet>="|a|b|";
   within a facet any checked value matches, across facets all must. The state lives in the URL hash
   (#kind=game&tag=Capture&sort=year) so that a filtered view can be bookmarked and shared.
   A long list is split into pages and the filters see only the rows of this page; the page then also lists
   every value with a page of its own ([data-facet-lists]), and the hint points from the filters in the hash
   (even one no row of this page has) to those pages, which hold every item with the value. */
(function () {
  'use strict';
  var rootEl = document.querySelector('[data-filter-root]');
  if (!rootEl) { return; }
  var form = rootEl.querySelector('[data-filters]');
  var table = rootEl.querySelector('table[data-sortable]');
  var tbody = table && table.tBodies[0];
  var rows = Array.prototype.slice.call(tbody ? tbody.rows : rootEl.querySelectorAll('[data-row]'));
  var status = rootEl.querySelector('[data-status]');
  var boxes = Array.prototype.slice.call(form.querySelectorAll('input[type="checkbox"]'));
  var sort = { key: 'title', desc: false };
  /* Filters of the hash with no checkbox here (a value none of this page's rows has): they still filter. */
  var absent = [];
  var scope = status.getAttribute('data-scope');
  var hint = rootEl.querySelector('[data-hint]');
  var lists = document.querySelector('[data-facet-lists]');

  function readHash() {
    var hash = window.location.hash.replace(/^#/, '');
    /* A hash without a value is a link to a place in the page (#place-x, from a place's page), not filters: read
       as a filter nobody has, it would hide every row, the one linked to too. */
    if (hash && hash.indexOf('=') === -1) { return; }
    var params = new URLSearchParams(hash);
    boxes.forEach(function (b) { b.checked = params.getAll(b.name).indexOf(b.value) !== -1; });
    absent = [];
    params.forEach(function (value, key) {
      if (key === 'sort') { return; }
      var known = boxes.some(function (b) { return b.name === key && b.value === value; });
      if (!known) { absent.push([key, value]); }
    });
    var s = params.get('sort');
    if (s) { sort = { key: s.replace(/-desc$/, ''), desc: /-desc$/.test(s) }; }
  }

  function writeHash() {
    var params = new URLSearchParams();
    boxes.forEach(function (b) { if (b.checked) { params.append(b.name, b.value); } });
    absent.forEach(function (p) { params.append(p[0], p[1]); });
    if (sort.key !== 'title' || sort.desc) { params.set('sort', sort.key + (sort.desc ? '-desc' : '')); }
    var hash = params.toString();
    var url = window.location.href.replace(/#.*$/, '') + (hash ? '#' + hash : '');
    window.history.replaceState(null, '', url);
  }

  function apply() {
    var wanted = {};
    boxes.forEach(function (b) { if (b.checked) { (wanted[b.name] = wanted[b.name] || []).push(b.value); } });
    absent.forEach(function (p) { (wanted[p[0]] = wanted[p[0]] || []).push(p[1]); });
    var shown = 0, counted = 0;
    rows.forEach(function (row) {
      var ok = Object.keys(wanted).every(function (facet) {
        var have = row.getAttribute('data-f-' + facet) || '';
        return wanted[facet].some(function (v) { return have.indexOf('|' + v.replace(/\|/g, '/') + '|') !== -1; });
      });
      /* The attribute, not the property: SVG elements have no hidden property. */
      if (ok) { row.removeAttribute('hidden'); } else { row.setAttribute('hidden', ''); }
      if (row.getAttribute('data-row') !== 'mark') {
        counted++;
        if (ok) { shown++; }
      }
    });
    status.textContent = shown + ' of ' + counted + ' shown' + (scope ? ' ' + scope : '');
    showHint();
    if (!table) { return; }
    var numeric = false;
    table.querySelectorAll('th').forEach(function (th) {
      var button = th.querySelector('[data-sort]');
      if (button && button.getAttribute('data-sort') === sort.key) {
        th.setAttribute('aria-sort', sort.desc ? 'descending' : 'ascending');
        numeric = button.hasAttribute('data-numeric');
      } else {
        th.removeAttribute('aria-sort');
      }
    });
    var key = 'data-' + sort.key;
    var sorted = rows.slice().sort(function (a, b) {
      var x = a.getAttribute(key) || '', y = b.getAttribute(key) || '';
      var c;
      if (numeric) {
        /* Undated rows go last whichever the direction. */
        if (x === '' || y === '') { return (x === '') - (y === ''); }
        c = Number(x) - Number(y);
      } else {
        c = x.localeCompare(y);
      }
      if (c === 0) { c = (a.getAttribute('data-title') || '').localeCompare(b.getAttribute('data-title') || ''); }
      return sort.desc ? -c : c;
    });
    sorted.forEach(function (row) { tbody.appendChild(row); });
  }

  /* Links to the lists of every item with a value asked for in the hash; for tags and places, to their index. */
  function showHint() {
    if (!hint || !lists) { return; }
    var params = new URLSearchParams(window.location.hash.replace(/^#/, ''));
    var found = [];
    params.forEach(function (value, key) {
      if (key === 'sort') { return; }
      var links = lists.querySelectorAll('a[data-key]');
      var exact = null, general = null;
      for (var i = 0; i < links.length; i++) {
        if (links[i].getAttribute('data-key') !== key) { continue; }
        if (links[i].getAttribute('data-value') === value) { exact = links[i]; }
        if (links[i].getAttribute('data-value') === '') { general = links[i]; }
      }
      var link = exact || general;
      if (link && found.indexOf(link) === -1) { found.push(link); }
    });
    while (hint.firstChild) { hint.removeChild(hint.firstChild); }
    hint.hidden = found.length === 0;
    if (!found.length) { return; }
    hint.appendChild(document.createTextNode('Beyond this page: '));
    found.forEach(function (link, n) {
      if (n > 0) { hint.appendChild(document.createTextNode(', ')); }
      var a = document.createElement('a');
      a.href = link.href;
      var group = link.closest('ul').previousElementSibling;
      a.textContent = (group ? group.textContent + ': ' : '') + link.textContent;
      hint.appendChild(a);
    });
  }

  form.addEventListener('change', function () { apply(); writeHash(); });
  form.querySelector('[data-clear]').addEventListener('click', function () {
    boxes.forEach(function (b) { b.checked = false; });
    absent = [];
    apply(); writeHash();
  });
  (table ? table.querySelectorAll('[data-sort]') : []).forEach(function (button) {
    button.addEventListener('click', function () {
      var key = button.getAttribute('data-sort');
      sort = { key: key, desc: sort.key === key ? !sort.desc : false };
      apply(); writeHash();
    });
  });
  /* A group with a filter set is open, so that what filters the rows shows. On a phone the filters come before
     the rows, and the groups open by default would fill the first screen: there the others start closed. */
  function openSet(atStart) {
    var phone = atStart && window.matchMedia && window.matchMedia('(max-width: 44rem)').matches;
    Array.prototype.forEach.call(form.querySelectorAll('details'), function (group) {
      if (group.querySelector('input:checked')) { group.open = true; } else if (phone) { group.open = false; }
    });
  }

  window.addEventListener('hashchange', function () { readHash(); apply(); openSet(false); });
  readHash();
  apply();
  openSet(true);
})();
