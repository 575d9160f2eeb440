import Foundation
@_spi(Inlining) import LandmarkNearCore

/// A closed ring of geodesic edges, bounding the smaller of the two regions it divides the
/// ellipsoid into (so its winding order does not matter): whether a point lies in that region,
/// and how far the ring is from a point.
///
/// Containment, by the parity of crossings of the meridian arc from P to the North Pole:
/// - Sides. With δ the longitude of a point relative to P's, reduced to (−180, 180], a point
///   is east if δ > 0 and west if δ ≤ 0 (P's meridian counts as west). An edge sweeping from δ_A
///   to δ_A + sweep (unrolled) crosses P's meridian, on P's side of the axis, once for each
///   multiple of 360 in [min, max) of the two: exactly the changes of side, so a vertex on the
///   meridian is counted once, by the edge that leaves or enters the west side, and each vertex
///   has the same δ in both its edges.
/// - Where. An edge that crosses does so at one latitude: at its vertex when that is on the
///   meridian; elsewhere on the geodesic (`MeridianCrossing`), unless P's latitude is outside the
///   band the edge spans, which decides without it. The crossing counts if it is north of P.
/// - Poles. An edge into, out of or through a pole sweeps its longitude at the pole: the ring
///   is treated as if pushed off the pole by a hair, on the side its sweeps say. This moves
///   nothing but a neighbourhood of that pole, which is on the ring (a point at that pole is on
///   the boundary), and the count along the meridian agrees with it (the crossing is at the
///   pole's latitude). Natural Earth's Antarctica (down ±180° to the pole and back) is a case.
/// - The North Pole. The ring's winding number w around the axis is the sum of the sweeps over
///   360. If w ≠ 0 the poles are on different sides, the North Pole on the left if w > 0; if
///   w = 0 both poles are in the same region, and the other region, a disk, has the area
///   |Σ S12| (the areas between the edges and the equator add up to it exactly when w = 0), so
///   the poles are in the smaller region if that is more than half the ellipsoid's area E. The
///   smaller region is on the left if the signed area (`Geodesic.signedArea(of:)`) is positive.
///   (An edge through a pole sweeps 180 or −180 as the ring's w must not be 0: Karney's area
///   sums are not taken for it.) A ring must not pass the same pole twice through its edges
///   (pinched there, it is not pushed off the pole consistently); explicit pole vertices joined
///   by meridians, as in Natural Earth, are fine.
///
/// A point on the ring (within 10⁻¹¹° of latitude of an edge where the meridian crosses it, on
/// a vertex, on a meridian edge) is on the boundary: in the area, at distance 0.
///
///     let ring = GeodesicRing([(0, 0), (0, 10), (10, 10)].map { Coordinate(latitude: $0.0, longitude: $0.1) })!
///     ring.locate(Coordinate(latitude: 3, longitude: 7))   // .inside
@_spi(Inlining) public struct GeodesicRing: Sendable {
    /// The edges; its vertices' longitudes are in [−180, 180].
    let chain: EdgeChain
    /// Whether no edge touches or passes a pole (then every edge sweeps less than 180°).
    let ordinary: Bool
    /// Whether the North Pole lies in the region the ring bounds.
    let northPoleInside: Bool
    /// Whether a vertex, or an edge, is at the North / South Pole.
    let touchesNorthPole: Bool
    let touchesSouthPole: Bool
    /// Whether the ring lies in a small ball (`EdgeChain.isSmall`): the region it bounds is then
    /// in that ball too, and a point outside the ball is outside the ring.
    let small: Bool

    /// Latitude (degrees) within which a crossing and P are taken as the same point.
    static let boundaryTolerance = 1e-11
    /// How far (metres of z) P must be below or above an edge's band (`GeodesicEdge.lowestZ`)
    /// for the band to decide a crossing without computing it: far above the rounding of z
    /// (nanometres), and a tenth of a millimetre: at least 9 × 10⁻¹⁰° of latitude
    /// anywhere (z changes by at most 111.7 km a degree), so that no point the band decides is
    /// within the boundary tolerance of the crossing. Nearer the band, the crossing is computed.
    static let bandMargin = 1e-4
    /// The area of the WGS84 ellipsoid, m²: 2πa² + π (b²/e) ln((1 + e)/(1 − e)).
    static let ellipsoidArea: Double = {
        let a = EllipsoidConstants.equatorialRadius
        let b = EllipsoidConstants.polarRadius
        let e = EllipsoidConstants.eccentricitySquared.squareRoot()
        return 2 * Double.pi * a * a + Double.pi * b * b / e * log((1 + e) / (1 - e))
    }()

    /// The ring through `vertices` (degrees; the first may be repeated at the end, as GeoJSON
    /// does; longitudes beyond ±180 allowed, kept reduced to [−180, 180]), or nil with fewer
    /// than 3 vertices or a latitude outside [−90, 90].
    public init?(_ given: [Coordinate], geodesic: Geodesic = .wgs84) {
        var vertices = given
        if vertices.count > 1, vertices.first == vertices.last { vertices.removeLast() }
        guard vertices.count >= 3, vertices.allSatisfy({ $0.latitude.isFinite && $0.longitude.isFinite && abs($0.latitude) <= 90 })
        else { return nil }
        // Longitudes into [−180, 180] (179 → 181 becomes 179 → −179: the same geodesic), which
        // `locate` compares with P's by a subtraction.
        var reduced = false
        for i in vertices.indices where abs(vertices[i].longitude) > 180 {
            vertices[i].longitude = Self.offset(vertices[i].longitude)
            reduced = true
        }
        // The edges made one at a time, their measures kept (no array of whole edges, 120 bytes
        // each, written and read back: most rings are small and need nothing more of them).
        // n + 1 points, the first repeated, in an array of that capacity (growing one from n
        // would leave a second array's worth of slack behind every ring).
        var points: [EarthCenteredPoint] = []
        points.reserveCapacity(vertices.count + 1)
        for vertex in vertices { points.append(EarthCenteredPoint(vertex)) }
        var measures: [GeodesicEdge.Measures] = []
        measures.reserveCapacity(vertices.count)
        var (north, south, plain) = (false, false, true)
        for i in vertices.indices {
            let next = i + 1 == vertices.count ? 0 : i + 1
            let edge = GeodesicEdge(from: vertices[i], to: vertices[next], points[i], points[next], geodesic: geodesic)
            measures.append(edge.measures)
            north = north || edge.start.latitude == 90 || (edge.passesPole && edge.reachesNorthPole)
            south = south || edge.start.latitude == -90 || (edge.passesPole && !edge.reachesNorthPole)
            plain = plain && abs(edge.sweep) < 180 && !edge.touchesPole
        }
        touchesNorthPole = north
        touchesSouthPole = south
        points.append(points[0])
        // The catalog's own array when it is these vertices, closed, bit for bit (a copy of it
        // whose longitudes were all in range).
        let closed = given.count == vertices.count + 1 && EdgeChain.same(given[vertices.count], vertices[0])
        let chain = EdgeChain(
            vertices: closed && !reduced ? given : vertices + [vertices[0]], points: points, measures: measures, geodesic: geodesic)
        if chain.isSmall {
            // The ring lies in a small ball that holds neither pole (`EdgeChain.isSmall`): the
            // smaller region is the one in the ball, and the North Pole is not in it. No
            // inverse problem or area is needed (most catalogs' rings).
            northPoleInside = false
            small = true
            self.chain = chain
        } else {
            small = false
            var edges = chain.edges
            var areaUnder = 0.0
            var sweep = 0.0
            for i in edges.indices {
                let inverse = geodesic.generalInverse(from: edges[i].start, to: edges[i].end)
                edges[i] = GeodesicEdge(from: edges[i].start, to: edges[i].end, inverse: inverse)
                areaUnder += inverse.areaUnder
                sweep += edges[i].sweep
            }
            var winding = Int((sweep / 360).rounded())
            if winding == 0, let turn = edges.firstIndex(where: { abs($0.sweep) == 180 }) {
                edges[turn].sweep = -180
                winding = -1
            }
            let smallerOnLeft = geodesic.signedArea(of: vertices) >= 0
            if winding == 0 {
                northPoleInside = abs(areaUnder) > Self.ellipsoidArea / 2
            } else {
                northPoleInside = (winding > 0) == smallerOnLeft
            }
            self.chain = EdgeChain(edges: edges, sharing: given, geodesic: geodesic)
            plain = edges.allSatisfy { abs($0.sweep) < 180 && !$0.touchesPole }
        }
        ordinary = plain
    }

    /// The area of the region the ring bounds, m² (Karney's, `geod_polygonarea`).
    public func area(geodesic: Geodesic = .wgs84) -> Double {
        abs(geodesic.signedArea(of: Array(chain.vertices.dropLast())))
    }

    public var edges: [GeodesicEdge] { chain.edges }

    /// Where `p` is: in the region the ring bounds, on the ring, or outside. No allocation; per
    /// edge, away from P's meridian, a subtraction and two comparisons.
    public func locate(_ p: Coordinate) -> RingLocation {
        locate(p, EarthCenteredPoint(p))
    }

    /// `locate(p)`, where `point` is `p`'s Earth-centred point: outside at once when the ring is
    /// small and `p` is outside its ball (the ball holds the ring and the region it bounds,
    /// `EdgeChain.isSmall`), which is where most points near a place are.
    public func locate(_ p: Coordinate, _ point: EarthCenteredPoint) -> RingLocation {
        if isOutsideBall(point) { return .outside }
        let latitude = p.latitude
        if abs(latitude) == 90 {
            if latitude > 0 ? touchesNorthPole : touchesSouthPole { return .boundary }
            if latitude > 0 { return northPoleInside ? .inside : .outside }
        }
        let longitude = Self.offset(p.longitude)
        let vertices = chain.vertices
        let measures = chain.measures
        let blocks = chain.blocks
        var crossings = 0
        var a = Self.offset(vertices[0].longitude, from: longitude)
        // Runs of edges that the first test below would pass one by one are passed whole
        // (`EdgeBlock.isApart`): most of a ring is away from P's meridian.
        var block = 0
        var i = 0
        while i < measures.count {
            if block < blocks.count && blocks[block].edges.lowerBound == i {
                block += 1
                if blocks[block - 1].isApart(fromMeridian: longitude) {
                    i = blocks[block - 1].edges.upperBound
                    a = Self.offset(vertices[i].longitude, from: longitude)
                    continue
                }
            }
            let b = Self.offset(vertices[i + 1].longitude, from: longitude)
            defer {
                a = b
                i += 1
            }
            // The common case: an edge that neither touches nor passes a pole (|sweep| < 180)
            // with no end on P's meridian crosses it iff its ends are on different sides, on
            // P's side of the axis iff they are less than 180° apart.
            if a != 0 && b != 0 && ((a > 0) == (b > 0) || abs(a - b) > 180)
                && (ordinary || (abs(measures[i].sweep) < 180 && abs(vertices[i].latitude) != 90 && abs(vertices[i + 1].latitude) != 90))
            {
                continue
            }
            let edge = chain[edge: i]
            if a == 0 && edge.start.latitude == latitude { return .boundary }
            if Self.runsAlongMeridian(edge, a, b, latitude) { return .boundary }
            let u0 = a
            let u1 = b + 360 * ((a + edge.sweep - b) / 360).rounded()
            let count = Int((max(u0, u1) / 360).rounded(.up) - (min(u0, u1) / 360).rounded(.up))
            guard count & 1 == 1 else { continue }
            let crossing: Double
            if edge.touchesPole {
                crossing = abs(edge.start.latitude) == 90 ? edge.start.latitude : edge.end.latitude
            } else if edge.passesPole {
                crossing = edge.reachesNorthPole ? 90 : -90
            } else if u0 == 0 {
                crossing = edge.start.latitude
            } else if u1 == 0 {
                crossing = edge.end.latitude
            } else if point.z < edge.lowestZ - Self.bandMargin {
                crossings += 1
                continue
            } else if point.z > edge.highestZ + Self.bandMargin {
                continue
            } else {
                crossing = MeridianCrossing.latitude(on: GeodesicSegment(edge, geodesic: chain.geodesic), longitudeChange: -u0)
            }
            if abs(crossing - latitude) <= Self.boundaryTolerance { return .boundary }
            if crossing > latitude { crossings += 1 }
        }
        return (crossings & 1 == 1) != northPoleInside ? .inside : .outside
    }

    /// Whether the ring is small and `point` outside its ball: then outside the ring and the
    /// region it bounds (`locate` answers `.outside`).
    @inline(__always)
    func isOutsideBall(_ point: EarthCenteredPoint) -> Bool {
        small && point.chordSquared(to: chain.center) > chain.radius * chain.radius
    }

    /// The exact distance (metres) from `p` to the ring when below `limit` (`EdgeChain`).
    public func boundaryDistance(from p: Coordinate, _ point: EarthCenteredPoint, below limit: Double = .infinity) -> Double {
        chain.distance(from: p, point, below: limit)
    }

    /// x reduced to (−180, 180].
    static func offset(_ x: Double) -> Double {
        let r = remainder(x, 360)
        return r == -180 ? 180 : r
    }

    /// The longitude `x` relative to `origin`, both in [−180, 180], reduced to (−180, 180]: 0
    /// exactly when they name the same meridian, and the same for a vertex in both its edges.
    @inline(__always)
    static func offset(_ x: Double, from origin: Double) -> Double {
        let d = x - origin
        return d > 180 ? d - 360 : d <= -180 ? d + 360 : d
    }

    /// Whether part of `edge` runs along P's meridian through P's latitude: a meridian edge,
    /// or the meridian leg of an edge into or through a pole, whose longitude is P's (δ = 0 at
    /// the end it leaves from).
    private static func runsAlongMeridian(_ edge: GeodesicEdge, _ a: Double, _ b: Double, _ latitude: Double) -> Bool {
        func between(_ x: Double, _ y: Double) -> Bool { latitude >= min(x, y) && latitude <= max(x, y) }
        let (start, end) = (edge.start.latitude, edge.end.latitude)
        if abs(start) == 90 && abs(end) == 90 { return false }
        if abs(start) == 90 { return b == 0 && between(start, end) }
        if abs(end) == 90 { return a == 0 && between(start, end) }
        if edge.passesPole {
            let pole: Double = edge.reachesNorthPole ? 90 : -90
            return (a == 0 && between(start, pole)) || (b == 0 && between(end, pole))
        }
        if edge.sweep == 0 { return (a == 0 || b == 0) && between(start, end) }
        return false
    }
}

/// Where a point is with respect to a ring.
@_spi(Inlining) public enum RingLocation: Sendable, Hashable {
    case inside
    case boundary
    case outside
}
