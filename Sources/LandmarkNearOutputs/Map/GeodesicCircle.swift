@_spi(Inlining) import LandmarkNearCore
@_spi(Inlining) import LandmarkNearGeodesy

/// The circle of all points at a geodesic distance from a centre on the WGS84 ellipsoid, as a
/// polygon for GeoJSON (RFC 7946): its vertices solve the direct geodesic problem (PROJ's
/// `geod_direct`), so every vertex is exactly at the radius; it is split at ±180° into pieces,
/// and a circle that contains a pole is closed along the pole's edge. Exterior rings run
/// counterclockwise (in longitude/latitude), as RFC 7946 asks.
///
///     let circle = GeodesicCircle(center: Coordinate(latitude: 34.011286, longitude: -116.166868),
///                                 radius: 8_046.72)
///     circle.polygons.count   // 1; 2 when it straddles ±180°
package struct GeodesicCircle: Sendable {
    package let center: Coordinate
    package let radius: Double
    /// The closed ring of vertices in counterclockwise order (first == last), longitudes in
    /// [-180, 180] as the direct problem gives them: not split, so it may jump at ±180°.
    package let ring: [Coordinate]
    /// 1 when the circle contains the North Pole, -1 the South Pole, 0 neither.
    package let enclosedPole: Int
    /// Closed counterclockwise exterior rings, none crossing ±180°: one for a Polygon, more for
    /// a MultiPolygon. Empty when the circle contains both poles (a radius beyond about
    /// 10,000 km): the area is then the world less a cap around the antipode, which is not drawn.
    package let polygons: [[Coordinate]]
    /// The circle contains both poles.
    package let coversBothPoles: Bool

    /// - Parameter vertices: azimuth steps around the centre (at least 64); edges that sweep
    ///   more than 4° of longitude are subdivided further (near the poles).
    package init(center: Coordinate, radius: Double, vertices: Int = 128, geodesic: Geodesic = .wgs84) {
        self.center = center
        self.radius = radius
        let steps = max(64, vertices)
        // Azimuths decreasing (north, west, south, east) make the ring counterclockwise.
        var points: [(azimuth: Double, coordinate: Coordinate)] = []
        func vertex(_ azimuth: Double) -> (azimuth: Double, coordinate: Coordinate) {
            (azimuth, geodesic.destination(from: center, azimuth: azimuth, distance: radius))
        }
        func refine(_ a: (azimuth: Double, coordinate: Coordinate), _ b: (azimuth: Double, coordinate: Coordinate), depth: Int) {
            guard depth < 6, abs(GeodesicCircle.wrapped(b.coordinate.longitude - a.coordinate.longitude)) > 4 else { return }
            let middle = vertex((a.azimuth + b.azimuth) / 2)
            refine(a, middle, depth: depth + 1)
            points.append(middle)
            refine(middle, b, depth: depth + 1)
        }
        var previous = vertex(360)
        points.append(previous)
        for k in 1...steps {
            let next = vertex(360 - 360 * Double(k) / Double(steps))
            refine(previous, next, depth: 0)
            points.append(next)
            previous = next
        }
        points[points.count - 1].coordinate = points[0].coordinate

        var winding = 0.0
        for i in 1..<points.count {
            winding += GeodesicCircle.wrapped(points[i].coordinate.longitude - points[i - 1].coordinate.longitude)
        }
        let pole = abs(winding) > 180 ? (winding > 0 ? 1 : -1) : 0
        ring = points.map(\.coordinate)
        enclosedPole = pole
        coversBothPoles =
            geodesic.distance(from: center, to: Coordinate(latitude: 90, longitude: 0)) <= radius
            && geodesic.distance(from: center, to: Coordinate(latitude: -90, longitude: 0)) <= radius
        guard !coversBothPoles else {
            polygons = []
            return
        }

        // Where the ring crosses ±180°: after vertex i, at latitude found by bisection on the
        // azimuth, so the crossing point is on the circle too.
        var crossings: [(after: Int, latitude: Double)] = []
        for i in 0..<(points.count - 1) {
            let a = points[i]
            let b = points[i + 1]
            guard abs(b.coordinate.longitude - a.coordinate.longitude) > 180 else { continue }
            let eastOfStart = a.coordinate.longitude > 0
            var low = a.azimuth
            var high = b.azimuth
            var latitude = a.coordinate.latitude
            for _ in 0..<64 {
                let middle = (low + high) / 2
                let point = geodesic.destination(from: center, azimuth: middle, distance: radius)
                latitude = point.latitude
                if (point.longitude > 0) == eastOfStart { low = middle } else { high = middle }
            }
            crossings.append((i, latitude))
        }
        guard !crossings.isEmpty else {
            polygons = [ring]
            return
        }
        func side(_ c: Coordinate) -> Double { c.longitude > 0 ? 180 : -180 }
        let open = Array(ring.dropLast())
        /// The vertices from just after crossing `from` up to vertex `to` (inclusive), going round.
        func arc(from start: Int, to end: Int) -> [Coordinate] {
            var result: [Coordinate] = []
            var i = (start + 1) % open.count
            while true {
                result.append(open[i])
                if i == end { break }
                i = (i + 1) % open.count
            }
            return result
        }
        var pieces: [[Coordinate]] = []
        if pole != 0 && crossings.count == 1 {
            let crossing = crossings[0]
            let inner = arc(from: crossing.after, to: crossing.after)
            let startLongitude = side(inner[0])
            let endLongitude = side(inner[inner.count - 1])
            let poleLatitude = Double(pole) * 90
            var piece = [Coordinate(latitude: crossing.latitude, longitude: startLongitude)] + inner
            piece.append(Coordinate(latitude: crossing.latitude, longitude: endLongitude))
            piece.append(Coordinate(latitude: poleLatitude, longitude: endLongitude))
            piece.append(Coordinate(latitude: poleLatitude, longitude: startLongitude))
            pieces.append(piece)
        } else {
            for (n, crossing) in crossings.enumerated() {
                let next = crossings[(n + 1) % crossings.count]
                let inner = arc(from: crossing.after, to: next.after)
                let longitude = side(inner[inner.count / 2])
                var piece = [Coordinate(latitude: crossing.latitude, longitude: longitude)] + inner
                piece.append(Coordinate(latitude: next.latitude, longitude: longitude))
                pieces.append(piece)
            }
        }
        polygons = pieces.compactMap(GeodesicCircle.closedRing)
    }

    /// Removes repeated positions and closes the ring; nil when fewer than 3 distinct remain.
    static func closedRing(_ positions: [Coordinate]) -> [Coordinate]? {
        var result: [Coordinate] = []
        for p in positions where result.last != p { result.append(p) }
        while result.count > 1 && result.first == result.last { result.removeLast() }
        guard result.count >= 3 else { return nil }
        result.append(result[0])
        return result
    }

    /// A longitude difference brought into [-180, 180].
    static func wrapped(_ degrees: Double) -> Double {
        var d = degrees.truncatingRemainder(dividingBy: 360)
        if d > 180 { d -= 360 } else if d < -180 { d += 360 }
        return d
    }
}
