// Writes countries-110m.txt from the world-atlas package's countries-110m.json (Natural Earth 1:110m admin 0
// countries as TopoJSON). Run once, from a folder where `world-atlas@2` and `topojson-client@3` are installed:
//   node convert.js path/to/countries-110m.json > countries-110m.txt
// Each line is one ring of one country: its name, a tab, then the ring's points as whole tenths of a degree,
// `east north` pairs separated by spaces. Points that round to the one before are dropped, as are rings left
// with fewer than four points, so the map loses nothing visible at the scales it is drawn at.
'use strict';
const fs = require('fs');
const topojson = require('topojson-client');
const topo = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const countries = topojson.feature(topo, topo.objects.countries).features;
const lines = [];
for (const c of countries) {
  const name = (c.properties && c.properties.name) || '';
  const g = c.geometry;
  if (!g) { continue; }
  const polygons = g.type === 'Polygon' ? [g.coordinates] : g.coordinates;
  for (const polygon of polygons) {
    for (const ring of polygon) {
      const out = [];
      for (const [x, y] of ring) {
        const p = [Math.round(x * 10), Math.round(y * 10)];
        const last = out[out.length - 1];
        if (!last || last[0] !== p[0] || last[1] !== p[1]) { out.push(p); }
      }
      if (out.length >= 4) { lines.push(name + '\t' + out.map((p) => p[0] + ' ' + p[1]).join(' ')); }
    }
  }
}
lines.sort();
process.stdout.write(lines.join('\n') + '\n');
