// Favourites that are places (areas and lines) and their radius outlines, for map.js: what
// each favourite gives to draw — a circle's ring, or a place's rings or paths and its
// outline's — and how a place is drawn: the outline where circles go (dashed, filled lightly),
// the place above it (an area filled, a line as a path), both named on hover.
var MapPlaces = (function () {
  'use strict';

  // The rings and paths of a favourite, each [lon,lat,...] with the pole its region holds
  // (closed along the map's edge in Web Mercator), whether it is closed (filled) and whether it
  // is the radius outline (a circle is one).
  function parts(f) {
    if (!f.place) { return [{ coords: f.ring, pole: f.pole, area: true, outline: true }]; }
    var out = [];
    [[f.place.figure, false], [f.place.outline, true]].forEach(function (pair) {
      var figure = pair[0];
      if (!figure) { return; }   // an outline holding both poles is not drawn
      figure.parts.forEach(function (coords, k) {
        out.push({ coords: coords, pole: figure.poles[k], area: figure.area, outline: pair[1] });
      });
    });
    return out;
  }

  // A ring around a pole, started where it crosses the map's cut (unwrapped: a longitude's
  // degrees east of it), so that in Web Mercator it runs from one edge of the world to the other,
  // as its closing along the map's edge expects, and a place and its outline line up.
  function fromCut(part, unwrapped) {
    var c = part.coords, open = c.length - 2;
    if (part.pole === 0) { return c; }
    for (var i = 2; i < open; i += 2) {
      if (Math.abs(unwrapped(c[i]) - unwrapped(c[i - 2])) > 180) {
        return c.slice(i, open).concat(c.slice(0, i), c.slice(i, i + 2));
      }
    }
    return c;
  }

  function describe(f) { return f.place.kind === 'line' ? 'line' : 'area'; }

  // points: the favourite's parts in the map's local units, in the order of parts(f). tools:
  // el, pathData, closeAtPole, metres and the two layers from map.js.
  function draw(f, points, tools) {
    var outline = [], place = [];
    parts(f).forEach(function (part, k) {
      var p = part.area ? tools.closeAtPole(points[k], part.pole) : points[k];
      if (p.length > 0) { (part.outline ? outline : place).push(tools.pathData(p, part.area)); }
    });
    if (outline.length > 0) {
      var ring = tools.el('path', { 'class': 'outline', d: outline.join(' '), 'data-landmark': String(f.id) }, tools.outlines);
      tools.el('title', {}, ring).textContent = f.name + ' — within ' + tools.metres(f.radiusMeters) + ' of the ' + describe(f);
    }
    var shape = tools.el('path', { 'class': 'place ' + describe(f), d: place.join(' '), 'data-landmark': String(f.id) }, tools.places);
    tools.el('title', {}, shape).textContent = f.name + ' — ' + describe(f);
  }

  // Legend entries for the kinds of place in the run (none for points only).
  function legend(favorites) {
    var kinds = {};
    favorites.forEach(function (f) { if (f.place) { kinds[describe(f)] = true; } });
    var out = [];
    if (kinds.area) { out.push(['area', 'favourite place (area)']); }
    if (kinds.line) { out.push(['line', 'favourite place (line)']); }
    if (out.length > 0) { out.push(['outline', 'place radius outline']); }
    return out;
  }

  // Draws the legend symbol of a place's kind into icon; false for another kind.
  function icon(kind, node, el) {
    if (kind === 'area') { el('rect', { 'class': 'place area', x: -9, y: -6, width: 18, height: 12, rx: 2 }, node); }
    else if (kind === 'line') { el('path', { 'class': 'place line', d: 'M-9 4 L-3 -4 L3 2 L9 -5' }, node); }
    else if (kind === 'outline') { el('rect', { 'class': 'outline', x: -10, y: -7, width: 20, height: 14, rx: 4 }, node); }
    else { return false; }
    return true;
  }

  return { parts: parts, fromCut: fromCut, draw: draw, legend: legend, icon: icon };
})();
