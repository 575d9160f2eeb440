// Landmark names on the map, for map.js: placed greedily, in the catalog's order, at the first
// of eight positions around the landmark's symbol where the name stays inside the view and
// overlaps neither a name already placed, nor another landmark's symbol, nor an event's
// marker. A name with no such
// place is hidden and shown on hover (and the symbol's title names it). Run on every redraw:
// at most MAX_PLACED names are tried against each other, so a redraw stays O(n * MAX_PLACED).
var MapLabels = (function () {
  'use strict';
  var MAX_PLACED = 300;
  // Text x, baseline y and anchor, relative to the symbol (a diamond 12 px wide, 14 px high).
  var CANDIDATES = [[9, 4, 'start'], [-9, 4, 'end'], [0, -10, 'middle'], [0, 19, 'middle'],
    [7, -8, 'start'], [7, 16, 'start'], [-7, -8, 'end'], [-7, 16, 'end']];
  var ASCENT = 11, DESCENT = 3, PAD = 2;

  function box(c, x, y, width) {
    var left = x + c[0] - (c[2] === 'end' ? width : c[2] === 'middle' ? width / 2 : 0);
    return [left - PAD, y + c[1] - ASCENT, left + width + PAD, y + c[1] + DESCENT];
  }
  function overlaps(a, b) { return a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3]; }
  function within(a, size) { return a[0] >= 0 && a[1] >= 0 && a[2] <= size.w && a[3] <= size.h; }

  // labels: [{node (the landmark's <g>), text (its <text>), sx, sy (its screen position)}];
  // markers: the events' screen positions [x, y]. A marker (8 px in radius) often sits on its
  // landmark's symbol: only its core (6 px) is kept clear, which every position around the
  // symbol leaves free, so that a name may touch the rim but never hide the marker.
  function place(labels, size, markers) {
    var taken = [], placed = 0;
    markers.forEach(function (m) { taken.push([m[0] - 6, m[1] - 6, m[0] + 6, m[1] + 6]); });
    labels.forEach(function (l) {
      if (l.width === undefined || l.width === 0) {
        l.width = l.text.getComputedTextLength() || l.text.textContent.length * 7;
      }
      if (l.sx >= 0 && l.sx <= size.w && l.sy >= 0 && l.sy <= size.h) { taken.push([l.sx - 6, l.sy - 7, l.sx + 6, l.sy + 7]); }
    });
    labels.forEach(function (l) {
      var chosen = null, chosenBox = null;
      for (var i = 0; placed < MAX_PLACED && i < CANDIDATES.length; i++) {
        var b = box(CANDIDATES[i], l.sx, l.sy, l.width);
        if (within(b, size) && !taken.some(function (t) { return overlaps(b, t); })) { chosen = CANDIDATES[i]; chosenBox = b; break; }
      }
      var c = chosen || CANDIDATES[0];
      l.text.setAttribute('x', c[0]);
      l.text.setAttribute('y', c[1]);
      l.text.setAttribute('text-anchor', c[2]);
      l.node.classList.toggle('label-hidden', chosen === null);
      if (chosen) { taken.push(chosenBox); placed++; }
    });
  }

  return { place: place };
})();
