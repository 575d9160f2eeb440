(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('run-data').textContent);
  var NS = 'http://www.w3.org/2000/svg';
  var WORLD = 256, MAX_LAT = 85.0511287798, EARTH_CIRCUMFERENCE = 40075016.686;
  var PALETTE = ['#2f6db5', '#e8772e', '#c23b4e', '#2a9d8f', '#7b4fb3', '#b8860b', '#d15fa0', '#5c7c2f', '#8c564b', '#1f9ec9'];
  var svg = document.getElementById('map');
  var worldLayer = document.getElementById('world');
  var graticule = document.getElementById('graticule');
  var landmarkLayer = document.getElementById('landmarks');
  var markerLayer = document.getElementById('markers');
  var scaleLayer = document.getElementById('scale');
  var tooltip = document.getElementById('tooltip');

  function el(name, attributes, parent) {
    var node = document.createElementNS(NS, name);
    for (var key in attributes) { node.setAttribute(key, attributes[key]); }
    if (parent) { parent.appendChild(node); }
    return node;
  }
  function html(name, className, text, parent) {
    var node = document.createElement(name);
    if (className) { node.className = className; }
    if (text !== undefined && text !== null) { node.textContent = text; }
    if (parent) { parent.appendChild(node); }
    return node;
  }
  function wrap(d) { d = d % 360; if (d > 180) { d -= 360; } else if (d < -180) { d += 360; } return d; }
  function color(device) { return PALETTE[device % PALETTE.length]; }
  function plural(n, word, many) { return n.toLocaleString('en') + ' ' + (n === 1 ? word : many || word + 's'); }
  function metres(m) {
    if (m >= 1000) { return (m / 1000).toFixed(m >= 100000 ? 0 : 2) + ' km (' + (m / 1609.344).toFixed(2) + ' mi)'; }
    return m.toFixed(1) + ' m';
  }

  // Where to cut the globe: in the middle of the widest longitude gap of the data, so that a
  // run across ±180° is drawn in one piece.
  var longitudes = [];
  data.devices.forEach(function (d) {
    var step = Math.max(1, Math.floor(d.coords.length / 2 / 2000));
    for (var i = 0; i < d.coords.length; i += 2 * step) { longitudes.push(d.coords[i]); }
  });
  // A favourite's rings and paths: a circle's ring, or a place's and its outline's (map-places.js).
  function eachPart(visit) { data.favorites.forEach(function (f) { MapPlaces.parts(f).forEach(function (p) { visit(p.coords); }); }); }
  eachPart(function (c) { for (var i = 0; i < c.length; i += 2) { longitudes.push(c[i]); } });
  data.events.forEach(function (e) { longitudes.push(e.lon); });
  var cut = -180;
  if (longitudes.length > 0) {
    longitudes.sort(function (a, b) { return a - b; });
    var bestGap = longitudes[0] + 360 - longitudes[longitudes.length - 1];
    cut = longitudes[longitudes.length - 1] + bestGap / 2;
    for (var g = 1; g < longitudes.length; g++) {
      var gap = longitudes[g] - longitudes[g - 1];
      if (gap > bestGap) { bestGap = gap; cut = longitudes[g - 1] + gap / 2; }
    }
    cut = wrap(cut);
  }

  // Web Mercator: x from the cut eastwards, y from the top; both 0..WORLD.
  function mercatorY(lat) {
    var phi = Math.max(-MAX_LAT, Math.min(MAX_LAT, lat)) * Math.PI / 180;
    return (1 - Math.log(Math.tan(Math.PI / 4 + phi / 2)) / Math.PI) / 2 * WORLD;
  }
  function latitudeOf(y) { return Math.atan(Math.sinh(Math.PI * (1 - 2 * y / WORLD))) * 180 / Math.PI; }
  function unwrapped(lon) { var d = (lon - cut) % 360; if (d < 0) { d += 360; } return d; }
  // A run near a pole (beyond 84°, all in one hemisphere) is drawn in polar stereographic
  // instead: Web Mercator cannot show the pole.
  var polar = 0, lowest = 90, sign = 0, R = WORLD / (2 * Math.PI);
  function latitudeSeen(lat) { lowest = Math.min(lowest, Math.abs(lat)); sign |= lat > 0 ? 1 : lat < 0 ? 2 : 0; }
  data.devices.forEach(function (d) { for (var i = 1; i < d.coords.length; i += 2) { latitudeSeen(d.coords[i]); } });
  eachPart(function (c) { for (var i = 1; i < c.length; i += 2) { latitudeSeen(c[i]); } });
  data.events.forEach(function (e) { latitudeSeen(e.lat); });
  var highest = 0;
  data.devices.forEach(function (d) { for (var i = 1; i < d.coords.length; i += 2) { highest = Math.max(highest, Math.abs(d.coords[i])); } });
  eachPart(function (c) { for (var i = 1; i < c.length; i += 2) { highest = Math.max(highest, Math.abs(c[i])); } });
  if (highest > 84 && (sign === 1 || sign === 2)) { polar = sign === 1 ? 1 : -1; }
  function forward(lon, lat) {
    if (polar === 0) { return [unwrapped(lon) / 360 * WORLD, mercatorY(lat)]; }
    var rho = 2 * R * Math.tan((90 - polar * lat) * Math.PI / 360), lambda = lon * Math.PI / 180;
    return [rho * Math.sin(lambda), polar * rho * Math.cos(lambda)];
  }
  function inverse(x, y) {
    if (polar === 0) { return [x / WORLD * 360 + cut, latitudeOf(Math.max(0, Math.min(WORLD, y)))]; }
    var rho = Math.sqrt(x * x + y * y), c = 2 * Math.atan(rho / (2 * R)) * 180 / Math.PI;
    return [Math.atan2(x, polar * y) * 180 / Math.PI, polar * (90 - c)];
  }
  // Metres on the ground per world unit at a latitude.
  function metresPerUnit(lat) {
    if (polar === 0) { return EARTH_CIRCUMFERENCE / WORLD * Math.cos(lat * Math.PI / 180); }
    return EARTH_CIRCUMFERENCE / WORLD * (1 + Math.sin(Math.abs(lat) * Math.PI / 180)) / 2;
  }
  // A path of [lon,lat,...] drawn continuously (each step the short way round).
  function projectLine(coords) {
    var out = [], previous = null, lonU = 0;
    if (polar !== 0) {
      for (var k = 0; k < coords.length; k += 2) { var q = forward(coords[k], coords[k + 1]); out.push(q[0], q[1]); }
      return out;
    }
    for (var i = 0; i < coords.length; i += 2) {
      lonU = previous === null ? unwrapped(coords[i]) : lonU + wrap(coords[i] - previous);
      previous = coords[i];
      out.push(lonU / 360 * WORLD, mercatorY(coords[i + 1]));
    }
    return out;
  }

  // Local drawing units: Mercator relative to the data's box, about 1000 units across, so the
  // zoom transform stays moderate (SVG works in single precision).
  var box = { x0: Infinity, y0: Infinity, x1: -Infinity, y1: -Infinity };
  function extend(points) {
    for (var i = 0; i < points.length; i += 2) {
      if (points[i] < box.x0) { box.x0 = points[i]; } if (points[i] > box.x1) { box.x1 = points[i]; }
      if (points[i + 1] < box.y0) { box.y0 = points[i + 1]; } if (points[i + 1] > box.y1) { box.y1 = points[i + 1]; }
    }
  }
  var trackPoints = data.devices.map(function (d) { var p = projectLine(d.coords); extend(p); return p; });
  var ringPoints = data.favorites.map(function (f) {
    return MapPlaces.parts(f).map(function (part) {
      var p = projectLine(f.place && polar === 0 ? MapPlaces.fromCut(part, unwrapped) : part.coords);
      extend(p);
      return p;
    });
  });
  var eventPoints = data.events.map(function (e) { var p = forward(e.lon, e.lat); extend(p); return p; });
  if (!isFinite(box.x0)) { box = { x0: 0, y0: 0, x1: WORLD, y1: WORLD }; }
  var span = Math.max(box.x1 - box.x0, box.y1 - box.y0, 1e-7);
  var unit = 1000 / span, originX = box.x0, originY = box.y0;
  function local(points) {
    var out = new Array(points.length);
    for (var i = 0; i < points.length; i += 2) { out[i] = (points[i] - originX) * unit; out[i + 1] = (points[i + 1] - originY) * unit; }
    return out;
  }
  // breaks: point indices where the pen lifts (a gap in time between two parts of a track).
  function pathData(points, close, breaks) {
    if (points.length === 0) { return ''; }
    var parts = ['M', points[0].toFixed(3), points[1].toFixed(3)], b = 0, lone = true;
    breaks = breaks || [];
    for (var i = 2; i < points.length; i += 2) {
      while (b < breaks.length && breaks[b] * 2 < i) { b++; }
      var move = b < breaks.length && breaks[b] * 2 === i;
      if (move && lone) { parts.push('l', '0.001', '0'); }
      parts.push(move ? 'M' : 'L', points[i].toFixed(3), points[i + 1].toFixed(3));
      lone = move;
    }
    if (lone) { parts.push('l', '0.001', '0'); }
    if (close) { parts.push('Z'); }
    return parts.join(' ');
  }

  // A ring around a pole is closed along the map's edge.
  function closeAtPole(p, pole) {
    if (pole !== 0 && polar === 0 && p.length >= 2) {
      var edge = (mercatorY(pole > 0 ? 90 : -90) - originY) * unit;
      p.push(p[p.length - 2], edge, p[0], edge);
    }
    return p;
  }
  // The basemap (map-basemap.js): country outlines in the same projection, redrawn by draw().
  var basemap = MapBasemap.prepare(JSON.parse(document.getElementById('basemap-data').textContent), { project: projectLine,
    local: local, closeAtPole: closeAtPole, polar: polar, worldSize: WORLD, worldWidth: WORLD * unit }, document.getElementById('basemap'), el);
  // Circles and places first (under the tracks).
  var placeTools = { el: el, pathData: pathData, closeAtPole: closeAtPole, metres: metres,
    outlines: document.getElementById('circles'), places: document.getElementById('places') };
  data.favorites.forEach(function (f, i) {
    if (f.place) { MapPlaces.draw(f, ringPoints[i].map(local), placeTools); return; }
    var p = closeAtPole(local(ringPoints[i][0]), f.pole);
    if (p.length === 0) { return; }   // a circle holding both poles is not drawn
    var circle = el('path', { 'class': 'circle', d: pathData(p, true), 'data-landmark': String(f.id) }, document.getElementById('circles'));
    el('title', {}, circle).textContent = f.name + ' — radius ' + metres(f.radiusMeters);
  });
  data.devices.forEach(function (d, i) {
    var track = el('path', { 'class': 'track', d: pathData(local(trackPoints[i]), false, d.breaks), stroke: color(i), 'data-device': String(i) }, document.getElementById('tracks'));
    el('title', {}, track).textContent = d.name + ' — ' + plural(d.fixes, 'fix', 'fixes');
  });

  // Landmarks and event markers live in screen space: they keep their size when zooming.
  var landmarkNodes = data.favorites.map(function (f) {
    var p = local(forward(f.lon, f.lat));
    var group = el('g', { 'class': 'landmark' }, landmarkLayer);
    el('path', { d: 'M0 -7 L6 0 L0 7 L-6 0 Z' }, group);
    el('title', {}, group).textContent = f.name;
    var text = el('text', { x: 9, y: 4 }, group);
    text.textContent = f.name;
    return { node: group, text: text, x: p[0], y: p[1] };
  });
  function eventClass(e) { return e.event === 'exit' ? 'exit' : e.notified ? 'notified' : 'suppressed'; }
  // The shape tells the kind: a circle an enter, a diamond an enter passed between two fixes
  // (drawn where the pass came nearest), a ring a dwell, a square an exit.
  function eventShape(e) { return e.event === 'exit' ? 'exit' : e.event === 'dwell' ? 'dwell' : e.via === 'crossing' ? 'crossing' : 'enter'; }
  function eventTitle(e) {
    if (e.event === 'exit') { return 'Exit'; }
    var what = e.event === 'dwell' ? 'dwell (inside since ' + e.enteredAt + ')' : e.via === 'crossing' ? 'enter, passed between two fixes' : 'enter';
    return e.notified ? 'Notified (' + what + ')' : 'Suppressed ' + what + ' (' + (e.reason || 'unknown') + ')';
  }
  function drawShape(shape, notified, group, scale) {
    var r = (notified ? 8 : 6.5) * scale;
    if (shape === 'exit') { el('rect', { 'class': 'shape', x: -5 * scale, y: -5 * scale, width: 10 * scale, height: 10 * scale }, group); }
    else if (shape === 'crossing') { el('path', { 'class': 'shape', d: 'M0 ' + (-r) + ' L' + r + ' 0 L0 ' + r + ' L' + (-r) + ' 0 Z' }, group); }
    else if (shape === 'dwell') { el('circle', { 'class': 'shape', r: r }, group); el('circle', { 'class': 'shape', r: r / 2 }, group); }
    else { el('circle', { 'class': 'shape', r: r }, group); }
  }
  function eventDetails(e) {
    return eventTitle(e) + '\nLandmark: ' + e.landmark + ' (' + e.landmarkId + ')' +
      '\nDevice: ' + data.devices[e.device].name +
      '\nTime: ' + (e.time === null ? 'none' : e.time) +
      '\nDistance: ' + metres(e.distanceMeters);
  }
  var markers = data.events.map(function (e, i) {
    var kind = eventClass(e);
    var group = el('g', { 'class': 'marker ' + kind, id: 'ev-' + i, tabindex: '0', 'data-event': String(i) }, markerLayer);
    drawShape(eventShape(e), kind === 'notified', group, 1);
    el('title', {}, group).textContent = eventDetails(e);
    var p = local(eventPoints[i]);
    return { node: group, x: p[0], y: p[1], event: e };
  });
  // Notified markers on top.
  markers.forEach(function (m) { if (m.event.notified) { markerLayer.appendChild(m.node); } });

  // The view: screen = local * scale + (tx, ty).
  var view = { scale: 1, tx: 0, ty: 0 }, size = { w: 1, h: 1 }, scheduled = false;
  // The drawing's coordinates are the screen's pixels, through a viewBox: when printing, the
  // page's box changes and the whole view scales into it.
  function measure() {
    var r = svg.getBoundingClientRect();
    size.w = Math.max(1, r.width); size.h = Math.max(1, r.height);
    svg.setAttribute('viewBox', '0 0 ' + size.w + ' ' + size.h);
  }
  function fit() {
    measure();
    var w = (box.x1 - box.x0) * unit, h = (box.y1 - box.y0) * unit;
    var s = Math.min((size.w - 160) / Math.max(w, 1e-9), (size.h - 120) / Math.max(h, 1e-9));
    view.scale = Math.max(minScale(), Math.min(s, 1e6));
    view.tx = (size.w - w * view.scale) / 2;
    view.ty = (size.h - h * view.scale) / 2;
    draw();
  }
  function minScale() { return 128 / (WORLD * unit); }
  function zoomAt(factor, sx, sy) {
    var s = Math.max(minScale(), Math.min(view.scale * factor, 4e6));
    factor = s / view.scale;
    view.tx = sx - (sx - view.tx) * factor;
    view.ty = sy - (sy - view.ty) * factor;
    view.scale = s;
    schedule();
  }
  function schedule() { if (!scheduled) { scheduled = true; requestAnimationFrame(function () { scheduled = false; draw(); }); } }
  function screen(x, y) { return [x * view.scale + view.tx, y * view.scale + view.ty]; }
  function toLonLat(sx, sy) {
    var x = (sx - view.tx) / view.scale / unit + originX, y = (sy - view.ty) / view.scale / unit + originY;
    return inverse(x, y);
  }

  function draw() {
    worldLayer.setAttribute('transform', 'translate(' + view.tx + ' ' + view.ty + ') scale(' + view.scale + ')');
    MapBasemap.draw(basemap, view, size);
    landmarkNodes.forEach(function (l) { var p = screen(l.x, l.y); l.sx = p[0]; l.sy = p[1]; l.node.setAttribute('transform', 'translate(' + p[0].toFixed(1) + ' ' + p[1].toFixed(1) + ')'); });
    MapLabels.place(landmarkNodes, size, markers.map(function (m) { return screen(m.x, m.y); }));   // map-labels.js
    markers.forEach(function (m) { var p = screen(m.x, m.y); m.node.setAttribute('transform', 'translate(' + p[0].toFixed(1) + ' ' + p[1].toFixed(1) + ')'); });
    drawGraticule();
    drawScale();
  }
  function niceStep(range, target) {
    var steps = [0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30, 45, 90];
    for (var i = 0; i < steps.length; i++) { if (range / steps[i] <= target) { return steps[i]; } }
    return 90;
  }
  function degrees(v, positive, negative) {
    var a = Math.abs(v), text = a >= 1 || a === 0 ? String(+a.toFixed(2)) : String(+a.toFixed(3));
    return text + '°' + (v > 0 && a !== 180 ? positive : v < 0 && a !== 180 ? negative : '');
  }
  function drawGraticule() {
    while (graticule.firstChild) { graticule.removeChild(graticule.firstChild); }
    if (polar !== 0) { drawPolarGraticule(); return; }
    var nw = toLonLat(0, 0), se = toLonLat(size.w, size.h);
    var lonStep = niceStep(se[0] - nw[0], 8), latStep = niceStep(nw[1] - se[1], 6);
    for (var lon = Math.ceil(nw[0] / lonStep) * lonStep; lon <= se[0]; lon += lonStep) {
      var x = ((lon - cut) / 360 * WORLD - originX) * unit * view.scale + view.tx;
      el('line', { x1: x, y1: 0, x2: x, y2: size.h }, graticule);
      el('text', { x: x + 3, y: size.h - 6 }, graticule).textContent = degrees(wrap(lon), 'E', 'W');
    }
    for (var lat = Math.ceil(se[1] / latStep) * latStep; lat <= nw[1]; lat += latStep) {
      var y = (mercatorY(lat) - originY) * unit * view.scale + view.ty;
      el('line', { x1: 0, y1: y, x2: size.w, y2: y }, graticule);
      el('text', { x: size.w - 4, y: y - 3, 'text-anchor': 'end' }, graticule).textContent = degrees(lat, 'N', 'S');
    }
  }
  // Circles of latitude around the pole and meridians from it.
  function drawPolarGraticule() {
    var pole = local(forward(0, polar * 90)), P = screen(pole[0], pole[1]);
    var poleInView = P[0] >= 0 && P[0] <= size.w && P[1] >= 0 && P[1] <= size.h;
    var low = 90, high = poleInView ? 90 : 0, lons = [];
    for (var i = 0; i <= 4; i++) {
      for (var j = 0; j <= 4; j++) {
        var q = toLonLat(size.w * i / 4, size.h * j / 4);
        low = Math.min(low, Math.abs(q[1])); high = Math.max(high, Math.abs(q[1])); lons.push(q[0]);
      }
    }
    var latStep = niceStep(high - low, 6), lonStep = 30;
    if (!poleInView) {
      lons.sort(function (a, b) { return a - b; });
      lonStep = Math.min(30, niceStep(lons[lons.length - 1] - lons[0], 8));
    }
    var unitsPerPixel = 1 / (unit * view.scale);
    function radius(lat) { return 2 * R * Math.tan((90 - lat) * Math.PI / 360) / unitsPerPixel; }
    var outer = radius(Math.max(0, Math.floor(low / latStep) * latStep));
    for (var lon = -180; lon < 180; lon += lonStep) {
      var a = lon * Math.PI / 180, dx = Math.sin(a), dy = polar * Math.cos(a);
      el('line', { x1: P[0], y1: P[1], x2: P[0] + dx * outer, y2: P[1] + dy * outer }, graticule);
      var lr = Math.min(outer * 0.96, poleInView ? 0.44 * Math.min(size.w, size.h) : outer);
      el('text', { x: P[0] + dx * lr, y: P[1] + dy * lr }, graticule).textContent = degrees(wrap(lon), 'E', 'W');
    }
    for (var lat = Math.ceil(low / latStep) * latStep; lat < 90; lat += latStep) {
      var r = radius(lat);
      el('circle', { cx: P[0], cy: P[1], r: r }, graticule);
      el('text', { x: P[0] + 3, y: P[1] - polar * r - 3 }, graticule).textContent = degrees(polar * lat, 'N', 'S');
    }
  }
  function drawScale() {
    while (scaleLayer.firstChild) { scaleLayer.removeChild(scaleLayer.firstChild); }
    var centre = toLonLat(size.w / 2, size.h / 2);
    var metresPerPixel = metresPerUnit(centre[1]) / unit / view.scale;
    var target = metresPerPixel * 140, nice = Math.pow(10, Math.floor(Math.log10(target)));
    [5, 2, 1].some(function (k) { if (k * nice <= target) { nice = k * nice; return true; } return false; });
    var px = nice / metresPerPixel, x = 16, y = size.h - 28;
    el('rect', { x: x - 6, y: y - 18, width: px + 12, height: 28, rx: 4 }, scaleLayer);
    el('line', { x1: x, y1: y, x2: x + px, y2: y }, scaleLayer);
    el('line', { x1: x, y1: y - 5, x2: x, y2: y + 5 }, scaleLayer);
    el('line', { x1: x + px, y1: y - 5, x2: x + px, y2: y + 5 }, scaleLayer);
    el('text', { x: x, y: y - 7, id: 'scale-label' }, scaleLayer).textContent = nice >= 1000 ? (nice / 1000) + ' km' : nice + ' m';
  }

  // Hover and focus details.
  function showTooltip(m) {
    tooltip.textContent = eventDetails(m.event);
    tooltip.hidden = false;
    var p = screen(m.x, m.y), w = tooltip.offsetWidth, h = tooltip.offsetHeight;
    var left = p[0] + 14, top = p[1] - h / 2;
    if (left + w > size.w - 4) { left = p[0] - 14 - w; }
    tooltip.style.left = Math.max(4, left) + 'px';
    tooltip.style.top = Math.max(4, Math.min(size.h - h - 4, top)) + 'px';
  }
  function hideTooltip() { tooltip.hidden = true; }
  var listLinks = {};
  function activate(index, centre) {
    markers.forEach(function (m) { m.node.classList.remove('active'); });
    Object.keys(listLinks).forEach(function (k) { listLinks[k].classList.remove('active'); });
    var m = markers[index];
    m.node.classList.add('active');
    markerLayer.appendChild(m.node);
    if (listLinks[index]) { listLinks[index].classList.add('active'); }
    if (centre) {
      view.tx = size.w / 2 - m.x * view.scale;
      view.ty = size.h / 2 - m.y * view.scale;
      draw();
    }
    showTooltip(m);
  }
  markers.forEach(function (m, i) {
    m.node.addEventListener('pointerenter', function () { showTooltip(m); });
    m.node.addEventListener('pointerleave', hideTooltip);
    m.node.addEventListener('focus', function () { showTooltip(m); });
    m.node.addEventListener('blur', hideTooltip);
    m.node.addEventListener('click', function (event) { event.stopPropagation(); activate(i, false); });
  });

  // Pan (drag) and zoom (wheel, buttons, keys).
  var drag = null;
  svg.addEventListener('pointerdown', function (event) {
    if (event.button !== 0) { return; }
    drag = { x: event.clientX, y: event.clientY, tx: view.tx, ty: view.ty };
    svg.setPointerCapture(event.pointerId);
    svg.classList.add('dragging');
  });
  svg.addEventListener('pointermove', function (event) {
    if (!drag) { return; }
    view.tx = drag.tx + event.clientX - drag.x;
    view.ty = drag.ty + event.clientY - drag.y;
    schedule();
  });
  function endDrag() { drag = null; svg.classList.remove('dragging'); }
  svg.addEventListener('pointerup', endDrag);
  svg.addEventListener('pointercancel', endDrag);
  svg.addEventListener('wheel', function (event) {
    event.preventDefault();
    var r = svg.getBoundingClientRect();
    var delta = event.deltaMode === 1 ? event.deltaY * 33 : event.deltaY;
    zoomAt(Math.exp(-delta * 0.002), event.clientX - r.left, event.clientY - r.top);
  }, { passive: false });
  svg.addEventListener('dblclick', function (event) {
    var r = svg.getBoundingClientRect();
    zoomAt(event.shiftKey ? 0.5 : 2, event.clientX - r.left, event.clientY - r.top);
  });
  document.getElementById('zoom-in').addEventListener('click', function () { zoomAt(2, size.w / 2, size.h / 2); });
  document.getElementById('zoom-out').addEventListener('click', function () { zoomAt(0.5, size.w / 2, size.h / 2); });
  document.getElementById('zoom-fit').addEventListener('click', fit);
  document.addEventListener('keydown', function (event) {
    if (event.target && event.target.tagName === 'A') { return; }
    var pan = { ArrowLeft: [80, 0], ArrowRight: [-80, 0], ArrowUp: [0, 80], ArrowDown: [0, -80] }[event.key];
    if (event.key === '+' || event.key === '=') { zoomAt(2, size.w / 2, size.h / 2); }
    else if (event.key === '-') { zoomAt(0.5, size.w / 2, size.h / 2); }
    else if (event.key === '0') { fit(); }
    else if (pan) { event.preventDefault(); view.tx += pan[0]; view.ty += pan[1]; schedule(); }
  });
  window.addEventListener('resize', function () { measure(); schedule(); });
  window.addEventListener('beforeprint', fit);
  window.addEventListener('afterprint', fit);

  // Header, legend and the list of notifications.
  document.title = data.title + ' — LandmarkNear map';
  document.getElementById('title').textContent = data.title;
  var notified = 0, suppressed = 0, exits = 0;
  data.events.forEach(function (e) { if (e.event === 'exit') { exits++; } else if (e.notified) { notified++; } else { suppressed++; } });
  document.getElementById('summary').textContent = plural(data.fixes, 'fix', 'fixes') + ' of ' + plural(data.devices.length, 'device') +
    ' · ' + plural(notified, 'notification') + ' · ' + plural(suppressed, 'suppressed enter') + ' · ' + plural(exits, 'exit') +
    ' · ' + plural(data.favorites.length, 'favourite') + (data.omittedFavorites > 0 ? ' drawn (' + data.omittedFavorites.toLocaleString('en') + ' without an event left out)' : '');
  var thinning = document.getElementById('thinning');
  if (data.thinningToleranceMeters !== null) {
    thinning.className = 'thinned';
    thinning.textContent = 'Tracks thinned for drawing: ' + data.drawnFixes.toLocaleString('en') + ' of ' + data.fixes.toLocaleString('en') +
      ' fixes drawn (Douglas–Peucker within ' + data.thinningToleranceMeters + ' m; every fix that caused an event is kept).';
  } else {
    thinning.textContent = 'Every used fix is drawn.';
  }
  document.getElementById('projection').textContent = polar === 0 ? 'Web Mercator projection.'
    : 'Polar stereographic projection around the ' + (polar > 0 ? 'North' : 'South') + ' Pole (the run is too close to it for Web Mercator).';
  var devicesList = document.getElementById('legend-devices');
  data.devices.slice(0, 30).forEach(function (d, i) {
    var li = html('li', 'device', null, devicesList);
    var swatch = html('span', 'swatch', null, li);
    swatch.style.background = color(i);
    html('span', 'device-name', d.name, li);
  });
  if (data.devices.length > 30) { html('li', 'more', 'and ' + (data.devices.length - 30).toLocaleString('en') + ' more devices', devicesList); }
  var symbols = document.getElementById('legend-symbols');
  var legend = [['notified', 'notification (enter)'], ['suppressed', 'enter, suppressed'], ['exit', 'exit']];
  if (data.events.some(function (e) { return e.via === 'crossing'; })) { legend.push(['crossing', 'enter passed between two fixes']); }
  if (data.events.some(function (e) { return e.event === 'dwell'; })) { legend.push(['dwell', 'dwell']); }
  legend.concat([['circle', 'favourite radius'], ['landmark', 'favourite landmark']], MapPlaces.legend(data.favorites)).forEach(function (s) {
    var li = html('li', null, null, symbols);
    var icon = el('svg', { 'class': 'legend-symbol', viewBox: '-11 -8 22 16' }, li);
    if (s[0] === 'circle') { el('rect', { 'class': 'circle', x: -10, y: -7, width: 20, height: 14, rx: 7 }, icon); }
    else if (s[0] === 'landmark') { var g = el('g', { 'class': 'landmark' }, icon); el('path', { d: 'M0 -7 L6 0 L0 7 L-6 0 Z' }, g); }
    else if (MapPlaces.icon(s[0], icon, el)) { /* a place's kind */ }
    else {
      var m = el('g', { 'class': 'marker ' + (s[0] === 'crossing' || s[0] === 'dwell' ? 'notified' : s[0]) }, icon);
      drawShape(s[0] === 'crossing' || s[0] === 'dwell' || s[0] === 'exit' ? s[0] : 'enter', s[0] !== 'suppressed', m, 0.75);
    }
    html('span', null, s[1], li);
  });
  var list = document.getElementById('notifications'), closeUps = 0;
  // A small map around the notification's circle (or place and outline): the tracks, circles and
  // places by reference (<use>), the marker drawn on top.
  function closeUp(e, i, parent) {
    var m = markers[i], w = 268, h = 120, x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    data.favorites.forEach(function (f, n) {
      if (f.id !== e.landmarkId) { return; }
      ringPoints[n].map(local).forEach(function (p) {
        for (var k = 0; k < p.length; k += 2) { x0 = Math.min(x0, p[k]); x1 = Math.max(x1, p[k]); y0 = Math.min(y0, p[k + 1]); y1 = Math.max(y1, p[k + 1]); }
      });
    });
    if (!isFinite(x0)) { x0 = x1 = m.x; y0 = y1 = m.y; }
    x0 = Math.min(x0, m.x); x1 = Math.max(x1, m.x); y0 = Math.min(y0, m.y); y1 = Math.max(y1, m.y);
    var cw = Math.max(x1 - x0, 1e-6) * 1.3, ch = Math.max(y1 - y0, 1e-6) * 1.3, cx = (x0 + x1) / 2, cy = (y0 + y1) / 2;
    if (cw / ch < w / h) { cw = ch * w / h; } else { ch = cw * h / w; }
    var small = el('svg', { 'class': 'close-up', viewBox: [cx - cw / 2, cy - ch / 2, cw, ch].join(' '), 'aria-hidden': 'true' }, parent);
    el('rect', { x: cx - cw / 2, y: cy - ch / 2, width: cw, height: ch, 'class': 'close-up-ground' }, small);
    el('use', { href: '#world-content' }, small);
    var perPixel = cw / w;
    data.favorites.forEach(function (f, n) {
      if (f.id !== e.landmarkId) { return; }
      var c = local(forward(f.lon, f.lat));
      el('path', { 'class': 'close-up-landmark', d: 'M' + c[0] + ' ' + (c[1] - 6 * perPixel) + ' l' + 5 * perPixel + ' ' + 6 * perPixel + ' l' + (-5 * perPixel) + ' ' + 6 * perPixel + ' l' + (-5 * perPixel) + ' ' + (-6 * perPixel) + 'Z' }, small);
    });
    markers.forEach(function (other) {
      if (other === m || other.event.notified || other.event.landmarkId !== e.landmarkId || other.event.device !== e.device) { return; }
      var exit = other.event.event === 'exit';
      el('circle', { 'class': exit ? 'exit-dot' : 'suppressed-dot', cx: other.x, cy: other.y, r: 4 * perPixel, 'stroke-width': 1.5 * perPixel }, small);
    });
    el('circle', { 'class': 'close-up-marker', cx: m.x, cy: m.y, r: 6 * perPixel, 'stroke-width': 2 * perPixel }, small);
  }
  data.events.forEach(function (e, i) {
    if (!e.notified) { return; }
    var li = html('li', null, null, list);
    var a = html('a', null, null, li);
    a.href = '#ev-' + i;
    a.setAttribute('data-event', String(i));
    html('span', 'notification-text', e.landmark + ' — ' + data.devices[e.device].name, a);
    html('span', 'when', (e.time === null ? 'no time' : e.time) + ' · ' + metres(e.distanceMeters), a);
    if (closeUps < 12) { closeUps++; closeUp(e, i, a); }
    a.addEventListener('click', function (event) { event.preventDefault(); activate(i, true); });
    listLinks[i] = a;
  });
  if (notified === 0) { html('li', 'empty', 'No notification in this run.', list); }

  fit();
  document.documentElement.setAttribute('data-ready', 'true');
})();
