@_spi(Inlining) import LandmarkNearCore

/// A closed ring on the globe and the region it stands for: a ring that does not wind around the
/// Earth's axis stands for the region it encloses in longitude/latitude; one that winds around it
/// (a full turn of longitude) for the region on the side of `pole`.
struct GlobeRing: Sendable {
    /// Closed (first == last); longitudes as they come (a ring may jump at ±180°, or be written
    /// across it with longitudes beyond 180).
    var positions: [Coordinate]
    /// 1: the region holds the North Pole, -1 the South Pole; 0 for a ring that does not wind
    /// around the axis.
    var pole: Int

    /// The longitude the ring turns through, step by step the short way: about ±360 for a ring
    /// around the axis, about 0 for any other.
    static func turn(_ positions: [Coordinate]) -> Double {
        var total = 0.0
        for (a, b) in zip(positions, positions.dropFirst()) { total += GeodesicCircle.wrapped(b.longitude - a.longitude) }
        return total
    }
}

/// Areas on the globe (each a shell ring and holes) made into RFC 7946 polygons: longitudes in
/// [-180, 180], cut at ±180° (§3.1.9) into parts, a ring around a pole closed along the pole's
/// edge (as `GeodesicCircle` does), exterior rings counterclockwise and holes clockwise
/// (§3.1.6).
///
/// How: each ring, unwrapped step by step, is a plain polygon in longitude/latitude (one around
/// a pole is cut where it crosses ±180° and closed along the pole); its parts beyond ±180° are
/// moved back by 360°; a shell less its holes, and the union of all of it, is GEOS's work in
/// that plane. Where an edge crosses ±180° a vertex is put on the meridian first, at the latitude
/// `crossing` gives, so that the cut falls there exactly.
///
///     let parts = GlobePolygons.polygons([[GlobeRing(positions: reef, pole: 0)]], geos: PlaneGEOS())
///     // two polygons when the reef straddles ±180°
enum GlobePolygons {
    /// - Parameter crossing: the latitude at which the edge from the first position to the
    ///   second crosses ±180°, given the latitude of the straight line between them there.
    static func polygons(
        _ areas: [[GlobeRing]], geos: PlaneGEOS, crossing: (Coordinate, Coordinate, Double) -> Double = { _, _, guess in guess }
    ) -> [[[Coordinate]]] {
        var pieces: [PlaneGEOS.Geometry] = []
        for rings in areas {
            guard let shell = rings.first, var region = canonical(shell, geos: geos, crossing: crossing) else { continue }
            for hole in rings.dropFirst() {
                guard let cut = canonical(hole, geos: geos, crossing: crossing), let rest = geos.difference(region, cut) else { continue }
                region = rest
            }
            pieces.append(region)
        }
        guard let all = geos.collection(pieces), let merged = geos.union(all) else { return [] }
        return geos.polygons(of: merged).map { rings in
            rings.enumerated().map { n, ring in
                let positions = ring.map { Coordinate(latitude: $0.y, longitude: $0.x) }
                // Exterior counterclockwise, holes clockwise (positive area: counterclockwise).
                return (signedArea(positions) > 0) == (n == 0) ? positions : positions.reversed()
            }
        }
    }

    /// The ring's region as GEOS polygons within longitudes [-180, 180]; nil when it has none.
    static func canonical(
        _ ring: GlobeRing, geos: PlaneGEOS, crossing: (Coordinate, Coordinate, Double) -> Double
    ) -> PlaneGEOS.Geometry? {
        var points = unwrapped(ring.positions, crossing: crossing)
        guard points.count >= 4 else { return nil }
        if ring.pole != 0 {
            // Start and end on the meridian (a ring around the axis crosses it), from -180
            // eastwards or from 180 westwards, and close along the pole.
            let turn = points[points.count - 1].x - points[0].x
            let open = points.dropLast()
            guard let start = open.firstIndex(where: { isMeridian($0.x) }) else { return nil }
            points = Array(open[start...]) + open[..<start].map { $0 + SIMD2(turn, 0) } + [open[start] + SIMD2(turn, 0)]
            let shift = (turn > 0 ? -180 : 180) - points[0].x
            points = points.map { $0 + SIMD2(shift, 0) }
            let edge = Double(ring.pole) * 90
            points += [SIMD2(points[points.count - 1].x, edge), SIMD2(points[0].x, edge), points[0]]
        }
        guard let made = geos.polygon([points]), let region = geos.valid(made) else { return nil }
        let low = points.map(\.x).min() ?? 0
        let high = points.map(\.x).max() ?? 0
        var parts: [PlaneGEOS.Geometry] = []
        for turn in -2...2 {
            let offset = 360 * Double(turn)
            guard high > offset - 180, low < offset + 180 else { continue }
            let box = geos.rectangle(x: (offset - 180)...(offset + 180), y: -90...90)
            guard let inside = geos.intersection(region, box) else { continue }
            for polygon in geos.polygons(of: inside) {
                if let moved = geos.polygon(polygon.map { $0.map { $0 - SIMD2(offset, 0) } }) { parts.append(moved) }
            }
        }
        guard let all = geos.collection(parts) else { return nil }
        return geos.union(all)
    }

    /// The ring as (longitude, latitude) with each step the short way round, starting in
    /// [-180, 180], with a vertex on every crossing of ±180° (+ 360° k).
    static func unwrapped(_ positions: [Coordinate], crossing: (Coordinate, Coordinate, Double) -> Double) -> [SIMD2<Double>] {
        guard let first = positions.first else { return [] }
        var out = [SIMD2(GeodesicCircle.wrapped(first.longitude), first.latitude)]
        for (a, b) in zip(positions, positions.dropFirst()) {
            let from = out[out.count - 1]
            let to = SIMD2(from.x + GeodesicCircle.wrapped(b.longitude - a.longitude), b.latitude)
            // Odd multiples of 180 strictly between the two longitudes, in the order met.
            var meridians: [Double] = []
            var meridian = ((min(from.x, to.x) - 180) / 360).rounded(.down) * 360 + 180
            while meridian <= min(from.x, to.x) { meridian += 360 }
            while meridian < max(from.x, to.x) {
                meridians.append(meridian)
                meridian += 360
            }
            for meridian in to.x > from.x ? meridians : meridians.reversed() {
                let t = (meridian - from.x) / (to.x - from.x)
                out.append(SIMD2(meridian, crossing(a, b, from.y + t * (to.y - from.y))))
            }
            out.append(to)
        }
        // A closed ring ends exactly where it began, a whole number of turns on.
        if positions.count > 1, first == positions[positions.count - 1] {
            out[out.count - 1] = out[0] + SIMD2(((out[out.count - 1].x - out[0].x) / 360).rounded() * 360, 0)
        }
        return out
    }

    static func isMeridian(_ longitude: Double) -> Bool {
        (longitude - 180).truncatingRemainder(dividingBy: 360) == 0
    }

    /// Shoelace area in square degrees: positive for a counterclockwise ring.
    static func signedArea(_ ring: [Coordinate]) -> Double {
        var sum = 0.0
        for (a, b) in zip(ring, ring.dropFirst()) { sum += a.longitude * b.latitude - b.longitude * a.latitude }
        return sum / 2
    }
}
