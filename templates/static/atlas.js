/* The map's markers that stand for several places close together. Activated (a click, Enter or Space), such a
   marker opens a list below its map of every place it stands for, each a link to the place's page; activated
   again, or with Escape or the list's Close button, it shuts the list and the focus goes back to the marker; a
   filter that hides the marker shuts it too.
   The markers carry their places as indices (data-places="3 17 42") into the page's one table of them
   (#atlas-places: [name, slug, items], 0 for a place no such marker holds), so that a place is written once
   however many maps draw it. Without this script a marker leads to the first of its places in the list. */
(function () {
  'use strict';
  var data = document.getElementById('atlas-places');
  if (!data) { return; }
  var table = JSON.parse(data.textContent);
  var href = data.getAttribute('data-href').split('*');
  var opener = null;

  var panel = document.createElement('section');
  panel.className = 'atlas-cluster';
  panel.id = 'atlas-cluster';
  panel.hidden = true;
  panel.setAttribute('aria-labelledby', 'atlas-cluster-title');
  var heading = document.createElement('h2');
  heading.id = 'atlas-cluster-title';
  heading.tabIndex = -1;
  var list = document.createElement('ul');
  list.className = 'plain';
  var close = document.createElement('button');
  close.type = 'button';
  close.textContent = 'Close';
  panel.appendChild(heading);
  panel.appendChild(list);
  panel.appendChild(close);
  var first = document.querySelector('figure.atlas');
  if (!first) { return; }
  first.parentNode.insertBefore(panel, first.nextSibling);

  function plural(n, one, many) { return n + ' ' + (n === 1 ? one : many); }

  function open(marker) {
    if (opener) { opener.setAttribute('aria-expanded', 'false'); }
    opener = marker;
    var members = marker.getAttribute('data-places').split(' ');
    var items = 0;
    while (list.firstChild) { list.removeChild(list.firstChild); }
    members.forEach(function (index) {
      var place = table[Number(index)];
      if (!place) { return; }
      items += place[2];
      var li = document.createElement('li');
      var a = document.createElement('a');
      a.href = href.join(place[1]);
      a.textContent = place[0];
      var note = document.createElement('span');
      note.className = 'note';
      note.textContent = ' ' + plural(place[2], 'item', 'items');
      li.appendChild(a);
      li.appendChild(note);
      list.appendChild(li);
    });
    heading.textContent = plural(list.children.length, 'place', 'places') + ' close together, ' + plural(items, 'item', 'items');
    /* Below the map the marker is on: the world map is further down, folded. */
    var figure = marker.closest('figure');
    figure.parentNode.insertBefore(panel, figure.nextSibling);
    panel.hidden = false;
    marker.setAttribute('aria-expanded', 'true');
    heading.focus();
  }

  function shut() {
    if (panel.hidden) { return; }
    panel.hidden = true;
    if (opener) {
      opener.setAttribute('aria-expanded', 'false');
      opener.focus();
    }
  }

  close.addEventListener('click', shut);
  /* A filter that hides the open marker shuts its list too (browse.js, loaded first, has applied it by now);
     the focus stays on the filter. */
  var filters = document.querySelector('[data-filters]');
  if (filters) {
    filters.addEventListener('change', function () {
      if (opener && !panel.hidden && opener.hasAttribute('hidden')) {
        panel.hidden = true;
        opener.setAttribute('aria-expanded', 'false');
      }
    });
  }
  panel.addEventListener('keydown', function (e) {
    if (e.key === 'Escape') { shut(); }
  });
  Array.prototype.forEach.call(document.querySelectorAll('svg.atlas-map a[data-places]'), function (marker) {
    /* A button that shows a list, no longer a link that leaves: said so to screen readers. */
    marker.setAttribute('role', 'button');
    marker.setAttribute('aria-expanded', 'false');
    marker.setAttribute('aria-controls', 'atlas-cluster');
    function toggle(e) {
      e.preventDefault();
      if (opener === marker && !panel.hidden) { shut(); } else { open(marker); }
    }
    marker.addEventListener('click', toggle);
    marker.addEventListener('keydown', function (e) {
      if (e.key === ' ') { toggle(e); }
      if (e.key === 'Escape') { shut(); }
    });
  });
})();
