/* Filters and sorting for the browse and rules tables. Rows carry their facet values as data-f-<facet>="|a|b|";
   within a facet any checked value matches, across facets all must. The state lives in the URL hash
   (#kind=game&tag=Capture&sort=year) so that a filtered view can be bookmarked and shared. */
(function () {
  'use strict';
  var rootEl = document.querySelector('[data-filter-root]');
  if (!rootEl) { return; }
  var form = rootEl.querySelector('[data-filters]');
  var table = rootEl.querySelector('table[data-sortable]');
  var tbody = table.tBodies[0];
  var rows = Array.prototype.slice.call(tbody.rows);
  var status = rootEl.querySelector('[data-status]');
  var boxes = Array.prototype.slice.call(form.querySelectorAll('input[type="checkbox"]'));
  var sort = { key: 'title', desc: false };

  function readHash() {
    var params = new URLSearchParams(window.location.hash.replace(/^#/, ''));
    boxes.forEach(function (b) { b.checked = params.getAll(b.name).indexOf(b.value) !== -1; });
    var s = params.get('sort');
    if (s) { sort = { key: s.replace(/-desc$/, ''), desc: /-desc$/.test(s) }; }
  }

  function writeHash() {
    var params = new URLSearchParams();
    boxes.forEach(function (b) { if (b.checked) { params.append(b.name, b.value); } });
    if (sort.key !== 'title' || sort.desc) { params.set('sort', sort.key + (sort.desc ? '-desc' : '')); }
    var hash = params.toString();
    var url = window.location.href.replace(/#.*$/, '') + (hash ? '#' + hash : '');
    window.history.replaceState(null, '', url);
  }

  function apply() {
    var wanted = {};
    boxes.forEach(function (b) { if (b.checked) { (wanted[b.name] = wanted[b.name] || []).push(b.value); } });
    var shown = 0;
    rows.forEach(function (row) {
      var ok = Object.keys(wanted).every(function (facet) {
        var have = row.getAttribute('data-f-' + facet) || '';
        return wanted[facet].some(function (v) { return have.indexOf('|' + v.replace(/\|/g, '/') + '|') !== -1; });
      });
      row.hidden = !ok;
      if (ok) { shown++; }
    });
    status.textContent = shown + ' of ' + rows.length + ' shown';
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

  form.addEventListener('change', function () { apply(); writeHash(); });
  form.querySelector('[data-clear]').addEventListener('click', function () {
    boxes.forEach(function (b) { b.checked = false; });
    apply(); writeHash();
  });
  table.querySelectorAll('[data-sort]').forEach(function (button) {
    button.addEventListener('click', function () {
      var key = button.getAttribute('data-sort');
      sort = { key: key, desc: sort.key === key ? !sort.desc : false };
      apply(); writeHash();
    });
  });
  window.addEventListener('hashchange', function () { readHash(); apply(); });
  readHash();
  apply();
})();
