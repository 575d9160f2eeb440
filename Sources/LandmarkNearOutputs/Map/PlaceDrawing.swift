@_spi(Inlining) import LandmarkNearCore
@_spi(Inlining) import LandmarkNearGeodesy

/// A favourite that is a place, ready to draw: the place itself and its radius outline
/// (`PlaceOutline`), each both as RFC 7946 geometry (split at ±180°, rings counterclockwise) and
/// unsplit for the page. With R = 0 the outline is the place.
///
/// The place's edges are geodesics, while a map viewer draws a straight line in longitude and
/// latitude between two positions: an edge whose straight line strays more than half a metre
/// from the geodesic at its middle gets vertices on the geodesic (halved 10 times at most), so
/// that the drawing shows the edges the engine measures. The catalog's vertices are all kept.
///
///     let park = PlaceDrawing(shape, radius: 500, geos: PlaneGEOS())
///     park?.place.polygons    // the park, split at ±180°
///     park?.outline?.rings    // its 500 m outline, for the page
package struct PlaceDrawing: Sendable {
    /// One figure: areas or lines.
    package struct Figure: Sendable {
        /// Areas: polygons, each its exterior ring (counterclockwise) and holes (clockwise),
        /// closed, longitudes in [-180, 180], cut at ±180°.
        package var polygons: [[[Coordinate]]] = []
        /// Lines: paths cut at ±180°.
        package var paths: [[Coordinate]] = []
        /// For the page: the rings (closed) or paths, unsplit, longitudes in [-180, 180]; and for
        /// each ring, the pole its region holds (1 north, -1 south, 0 none).
        package var parts: [[Coordinate]] = []
        package var poles: [Int] = []
        package var isArea: Bool
    }

    package var kind: LandmarkShape.Kind
    package var place: Figure
    /// The boundary of the points within R of the place; nil when that holds both poles (the
    /// world less a region on the far side), which is not drawn.
    package var outline: Figure?
    /// 1 when the outline holds the North Pole, -1 the South Pole, 0 neither.
    package var enclosedPole: Int

    /// nil for a shape that is not a place (`GeodesicShape` refuses it; catalogs never hold one).
    init?(_ shape: LandmarkShape, radius: Double, geos: PlaneGEOS, geodesic: Geodesic = .wgs84) {
        guard let measured = GeodesicShape(shape, geodesic: geodesic), let distance = PlaceDistance(shape, geodesic: geodesic) else {
            return nil
        }
        kind = shape.kind
        // The place is cut at ±180° where its edge, a geodesic, crosses the meridian.
        func onEdge(_ a: Coordinate, _ b: Coordinate, _ guess: Double) -> Double {
            PlaceDrawing.crossing(from: a, to: b, geodesic: geodesic) ?? guess
        }
        switch shape {
        case .areas(let areas):
            let rings = areas.map { $0.map { PlaceDrawing.alongGeodesics($0, geodesic: geodesic) } }
            let globe = rings.map { $0.map { GlobeRing(positions: $0, pole: PlaceDrawing.pole(of: $0)) } }
            place = Figure(
                polygons: GlobePolygons.polygons(globe, geos: geos, crossing: onEdge), parts: rings.flatMap { $0 },
                poles: globe.flatMap { $0.map(\.pole) }, isArea: true)
        case .lines(let paths):
            let drawn = paths.map { PlaceDrawing.alongGeodesics($0, geodesic: geodesic) }
            place = Figure(
                paths: drawn.flatMap { AntimeridianSplit.lines($0, crossing: onEdge) }, parts: drawn, poles: drawn.map { _ in 0 },
                isArea: false)
        }
        guard radius > 0 else {
            outline = place
            enclosedPole = 0
            return
        }
        guard let outline = PlaceOutline(measured, distance: distance, shape: shape, radius: radius, geos: geos, geodesic: geodesic) else {
            self.outline = nil
            enclosedPole = 0
            return
        }
        enclosedPole = outline.enclosedPole
        // Where an outline's edge crosses ±180°, the cut is put on the outline itself: the
        // latitude on the meridian at the distance R, near the straight line's.
        func crossing(_ a: Coordinate, _ b: Coordinate, _ guess: Double) -> Double {
            func g(_ latitude: Double) -> Double {
                distance.distance(from: Coordinate(latitude: max(-90, min(90, latitude)), longitude: 180)) - radius
            }
            // The straight line is within R / 2,000 of the outline at its middle: a percent of
            // R (in degrees of latitude) beyond the edge's own span is room enough.
            let span = abs(a.latitude - b.latitude) + radius / 10_000_000
            return SecantRoot.find(g, from: guess, guess + 1e-7, tolerance: radius * 1e-6, limit: span)
                .map { max(-90, min(90, $0)) } ?? guess
        }
        self.outline = Figure(
            polygons: GlobePolygons.polygons(outline.polygons, geos: geos, crossing: crossing),
            parts: outline.polygons.flatMap { $0.map(\.positions) }, poles: outline.polygons.flatMap { $0.map(\.pole) },
            isArea: true)
    }

    /// The vertices with points of the geodesics between them where the straight line in
    /// longitude/latitude strays more than half a metre; longitudes into [-180, 180].
    static func alongGeodesics(_ vertices: [Coordinate], geodesic: Geodesic) -> [Coordinate] {
        func normal(_ c: Coordinate) -> Coordinate { Coordinate(latitude: c.latitude, longitude: GeodesicCircle.wrapped(c.longitude)) }
        guard let first = vertices.first else { return [] }
        var out = [normal(first)]
        func cut(_ a: Coordinate, _ b: Coordinate, depth: Int) {
            let line = geodesic.line(from: a, to: b)
            let middle = line.position(at: line.length / 2).coordinate
            let straight = Coordinate(
                latitude: (a.latitude + b.latitude) / 2,
                longitude: GeodesicCircle.wrapped(a.longitude + GeodesicCircle.wrapped(b.longitude - a.longitude) / 2))
            if depth < 10 && geodesic.distance(from: middle, to: straight) > 0.5 {
                cut(a, middle, depth: depth + 1)
                out.append(middle)
                cut(middle, b, depth: depth + 1)
            }
        }
        for (a, b) in zip(vertices, vertices.dropFirst()) {
            cut(normal(a), normal(b), depth: 0)
            out.append(normal(b))
        }
        return out
    }

    /// The latitude at which the geodesic from `a` to `b` crosses ±180°, nil when it does not
    /// (to 10⁻¹² degrees of longitude: the longitude changes monotonically along a geodesic).
    static func crossing(from a: Coordinate, to b: Coordinate, geodesic: Geodesic) -> Double? {
        let line = geodesic.line(from: a, to: b)
        let turn = line.unrolledPosition(at: line.length).longitudeChange
        let target = (turn > 0 ? 180 : -180) - GeodesicCircle.wrapped(a.longitude)
        guard abs(target) <= abs(turn), line.length > 0 else { return nil }
        func g(_ s: Double) -> Double { line.unrolledPosition(at: s).longitudeChange - target }
        guard let s = SecantRoot.find(g, from: 0, line.length, tolerance: 1e-12, limit: line.length) else { return nil }
        return line.position(at: s).coordinate.latitude
    }

    /// The pole a ring of a place holds: none unless it winds around the axis; then the one on
    /// the side of its mean latitude (a ring bounds the smaller region: `LandmarkShape`), as the
    /// catalog reader decides it.
    static func pole(of ring: [Coordinate]) -> Int {
        guard abs(GlobeRing.turn(ring)) > 180 else { return 0 }
        return ring.reduce(0) { $0 + $1.latitude } >= 0 ? 1 : -1
    }
}
