// The basemap under the run, for map.js: Natural Earth's 1:110m country outlines (basemap.json,
// made by Scripts/make-basemap.py; public domain), land filled light grey and coasts and
// borders drawn thin, in the page's projection. They are drawn in screen space, clipped to the
// view on every redraw: the world's outlines in the run's local units reach tens of millions
// of units on a street-sized run, which SVG's single precision and the renderer's fills do
// not survive at high zoom, while the few rings near the view, clipped, always do.
var MapBasemap = (function () {
  'use strict';
  var ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  var MARGIN = 4;       // px beyond the view that clipped fills reach, so no edge shows
  var MAX_COPIES = 12;  // world copies side by side when zoomed far out (each ~128 px at least)

  // One ring's string: [lon,lat,...] in degrees (the format: Scripts/make-basemap.py).
  function decode(text, unit) {
    var out = [], value = 0, shift = 0, previous = [0, 0];
    for (var i = 0; i < text.length; i++) {
      var v = ALPHABET.indexOf(text.charAt(i));
      value += (v & 31) * Math.pow(2, shift);
      if (v & 32) { shift += 5; continue; }
      var n = value % 2 === 1 ? -(value + 1) / 2 : value / 2, k = out.length % 2;
      previous[k] += n;
      out.push(previous[k] * unit);
      value = 0; shift = 0;
    }
    return out;
  }

  // tools: project ([lon,lat,...] to world units, continuous), local (world to local units),
  // closeAtPole, polar (0 for Web Mercator) and worldWidth (one world's width in local units).
  function prepare(data, tools, layer, el) {
    var rings = [];
    data.rings.forEach(function (text) {
      var c = decode(text, data.unit), lowest = 90, sum = 0, n = c.length / 2;
      for (var i = 1; i < c.length; i += 2) { lowest = Math.min(lowest, tools.polar * c[i]); sum += c[i]; }
      // Polar stereographic cannot reach the far pole: rings near it are left out.
      if (tools.polar !== 0 && lowest < -80) { return; }
      var world = tools.project(c), pole = 0;
      // A ring that goes once round the globe (Antarctica) holds a pole: closed along the edge.
      if (tools.polar === 0 && Math.abs(world[world.length - 2] - world[0]) > tools.worldSize / 2) { pole = sum / n > 0 ? 1 : -1; }
      var points = tools.local(world), coast = points.length;
      if (pole !== 0) { tools.closeAtPole(points, pole); }
      // Segments along ±180° are where Natural Earth cut a country, not a coast or a border.
      var cut = new Uint8Array(n);
      for (var j = 0; j < n; j++) {
        var k = (j + 1) % n;
        cut[j] = Math.abs(c[2 * j]) > 179.99 && Math.abs(c[2 * k]) > 179.99 ? 1 : 0;
      }
      var box = [Infinity, Infinity, -Infinity, -Infinity];
      for (var p = 0; p < points.length; p += 2) {
        box[0] = Math.min(box[0], points[p]); box[2] = Math.max(box[2], points[p]);
        box[1] = Math.min(box[1], points[p + 1]); box[3] = Math.max(box[3], points[p + 1]);
      }
      rings.push({ points: points, coast: coast, closed: pole === 0, cut: cut, box: box });
    });
    var land = el('path', { 'class': 'land' }, layer);
    var borders = el('path', { 'class': 'borders' }, layer);
    return { rings: rings, land: land, borders: borders, polar: tools.polar, worldWidth: tools.worldWidth };
  }

  // Sutherland–Hodgman against the view's rectangle: fills only (the cut edges are not drawn).
  function clipPolygon(points, r) {
    var edges = [[0, 1, r[0]], [0, -1, r[2]], [1, 1, r[1]], [1, -1, r[3]]];
    for (var e = 0; e < edges.length && points.length > 0; e++) {
      var axis = edges[e][0], dir = edges[e][1], limit = edges[e][2], out = [];
      var inside = function (i) { return dir * (points[i + axis] - limit) >= 0; };
      for (var i = 0; i < points.length; i += 2) {
        var j = (i + points.length - 2) % points.length, a = inside(j), b = inside(i);
        if (a !== b) {
          var t = (limit - points[j + axis]) / (points[i + axis] - points[j + axis]);
          out.push(points[j] + t * (points[i] - points[j]), points[j + 1] + t * (points[i + 1] - points[j + 1]));
        }
        if (b) { out.push(points[i], points[i + 1]); }
      }
      points = out;
    }
    return points;
  }

  // Liang–Barsky: the part [t0, t1] of a segment inside r, or null.
  function clipSegment(ax, ay, bx, by, r) {
    var t0 = 0, t1 = 1, dx = bx - ax, dy = by - ay;
    var p = [-dx, dx, -dy, dy], q = [ax - r[0], r[2] - ax, ay - r[1], r[3] - ay];
    for (var i = 0; i < 4; i++) {
      if (p[i] === 0) { if (q[i] < 0) { return null; } continue; }
      var t = q[i] / p[i];
      if (p[i] < 0) { if (t > t1) { return null; } t0 = Math.max(t0, t); } else { if (t < t0) { return null; } t1 = Math.min(t1, t); }
    }
    return [t0, t1];
  }

  function f(v) { return v.toFixed(1); }

  // Redraws for the view (screen = local * scale + (tx, ty)) and the view's size in px.
  function draw(basemap, view, size) {
    var r = [-MARGIN, -MARGIN, size.w + MARGIN, size.h + MARGIN], fill = [], lines = [];
    var width = basemap.worldWidth * view.scale, first = 0, last = 0;
    if (basemap.polar === 0 && width > 0) {
      first = Math.max(-MAX_COPIES, Math.floor(-view.tx / width) - 2);
      last = Math.min(MAX_COPIES, Math.ceil((size.w - view.tx) / width) + 1);
    }
    for (var copy = first; copy <= last; copy++) {
      var dx = copy * basemap.worldWidth;
      basemap.rings.forEach(function (ring) {
        var b = ring.box, s = view.scale;
        if ((b[2] + dx) * s + view.tx < r[0] || (b[0] + dx) * s + view.tx > r[2] || b[3] * s + view.ty < r[1] || b[1] * s + view.ty > r[3]) { return; }
        var screen = new Array(ring.points.length);
        for (var i = 0; i < ring.points.length; i += 2) {
          screen[i] = (ring.points[i] + dx) * s + view.tx;
          screen[i + 1] = ring.points[i + 1] * s + view.ty;
        }
        var clipped = clipPolygon(screen, r);
        if (clipped.length >= 6) {
          fill.push('M' + f(clipped[0]) + ' ' + f(clipped[1]));
          for (var k = 2; k < clipped.length; k += 2) { fill.push('L' + f(clipped[k]) + ' ' + f(clipped[k + 1])); }
          fill.push('Z');
        }
        var n = ring.coast / 2, segments = ring.closed ? n : n - 1, pen = false;
        for (var j = 0; j < segments; j++) {
          var a = 2 * j, c = 2 * ((j + 1) % n);
          var t = ring.cut[j] ? null : clipSegment(screen[a], screen[a + 1], screen[c], screen[c + 1], r);
          if (t === null) { pen = false; continue; }
          var ex = screen[c] - screen[a], ey = screen[c + 1] - screen[a + 1];
          if (!pen || t[0] > 0) { lines.push('M' + f(screen[a] + t[0] * ex) + ' ' + f(screen[a + 1] + t[0] * ey)); }
          lines.push('L' + f(screen[a] + t[1] * ex) + ' ' + f(screen[a + 1] + t[1] * ey));
          pen = t[1] === 1;
        }
      });
    }
    basemap.land.setAttribute('d', fill.join(''));
    basemap.borders.setAttribute('d', lines.join(''));
  }

  return { decode: decode, prepare: prepare, draw: draw };
})();
