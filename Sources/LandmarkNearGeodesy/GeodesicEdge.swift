import Foundation
@_spi(Inlining) import LandmarkNearCore

/// One geodesic edge of an area's ring or of a line, with what the per-point work needs
/// computed once: the longitude it sweeps and a band of Earth-centred z that holds it (for
/// `GeodesicRing`'s crossing test), and its Earth-centred endpoints and bulge (for the distance
/// bounds below). Its azimuth and length (an inverse problem) are the segment's
/// (`GeodesicSegment`), solved where a point comes near enough to need the exact distance: a
/// catalog's edges are made without one (`init(from:to:geodesic:)`), which is what makes
/// 10,000 polygons of 500 vertices ready in a fraction of a second (see Benchmarks/LOG.md).
///
/// Distance bounds, without trigonometry. Every point X of the edge is at most s from the start
/// and L − s from the end along it, so at most as far in a straight line: |AX| + |XB| ≤ L. X
/// therefore lies in the prolate spheroid with foci A, B and major axis L, every point of which
/// is within h = √(L² − c²)/2 (its semi-minor axis; c = |AB|, the chord) of the chord segment AB
/// (beyond A or B the spheroid reaches (L − c)/2 ≤ h). Conversely every point Y of AB has a
/// point X of the edge at the same place along AB (the edge runs from A to B), within h of it.
/// With d = the straight distance from P to the chord segment AB:
/// - lower: |PX| ≥ d − h for every X, and the geodesic is at least the chord;
/// - upper: some X has |PX| ≤ d + h, and its geodesic distance is at most
///   `GeodesicBounds.upper(chord:)` of that (as are those of A and B).
/// h is about L²/7ρ: 2.3 m for a 10 km edge, 230 m for 100 km (the arc's own sagitta is L²/8R).
/// Without the inverse problem, L is bounded from the chord (`GeodesicBounds.upper`), which
/// bounds h as well: √(U(c)² − c²)/2 with U(c) − c ≈ c³/24ρ², the same 2.3 m at 10 km.
///
/// The band without the inverse problem: every point X of the edge is within h of the chord, so
/// its z (the Earth-centred coordinate along the axis) is within h of the chord's, between the
/// ends' z. On the surface z grows with the latitude (z = b sin β, β the reduced latitude), so a
/// point whose z is below the band is south of every point of the edge: the band is kept in z,
/// and compared with the point's own z, without turning it into latitudes (two `atan2` an edge,
/// a sixth of the start-up of 10,000 polygons; see Benchmarks/LOG.md).
///
///     let edge = GeodesicEdge(from: Coordinate(latitude: 60, longitude: 10), to: Coordinate(latitude: 60, longitude: 12))
///     let p = EarthCenteredPoint(Coordinate(latitude: 61, longitude: 11))
///     edge.distanceBounds(from: p)   // (110 714.7, 111 278.3): the exact distance is 110 999.0 m
@_spi(Inlining) public struct GeodesicEdge: Sendable {
    public let start: Coordinate
    public let end: Coordinate
    /// The longitude (degrees) the edge sweeps from start to end: the end's minus the start's
    /// reduced to (−180, 180], which is the geodesic's own for every edge that does not touch a
    /// pole. An edge into, out of or through a pole sweeps its longitude there, at a point;
    /// the sweep is then a convention, any value congruent mod 360 (`GeodesicRing` may change
    /// it by ±360).
    var sweep: Double
    /// The band of Earth-centred z (metres) that holds every point of the edge: its ends' z
    /// widened by the bulge (without the inverse problem), or the z of its band of latitudes
    /// (`latitudeBand`, with it), open (±infinity) on a side where it reaches a pole.
    let lowestZ: Double
    let highestZ: Double

    /// Whether the band reaches the North Pole: for an edge through a pole (`passesPole`),
    /// whether that pole is the North Pole. (Kept in the band, not in a flag of its own, which
    /// would make every edge 8 bytes larger.)
    var reachesNorthPole: Bool { highestZ == .infinity }
    public let startPoint: EarthCenteredPoint
    public let endPoint: EarthCenteredPoint
    /// h = √(L² − c²)/2 (see above), metres, with L − c made a micrometre larger (the rounding of
    /// the chord and of L are nanometres).
    let bulge: Double
    /// 1/c² (0 for a chord of length 0): the projection onto the chord without a division.
    private let inverseChordSquared: Double

    /// The longest chord (metres) of an edge made without its inverse problem: beyond it the
    /// bound of L from the chord grows loose (a metre at 100 km, 0.3 km at 1,000 km), and an
    /// edge that long is rare enough to pay for one.
    static let longestBoundedChord = 1_000_000.0

    /// The edge from `start` to `end`, without its inverse problem unless it is long, touches
    /// or passes a pole (whose band needs the azimuths), or runs between antipodal meridians.
    public init(from start: Coordinate, to end: Coordinate, geodesic: Geodesic = .wgs84) {
        self.init(from: start, to: end, EarthCenteredPoint(start), EarthCenteredPoint(end), geodesic: geodesic)
    }

    /// `init(from:to:geodesic:)` with the ends' Earth-centred points given (a ring's vertices
    /// are each the end of one edge and the start of the next).
    init(from start: Coordinate, to end: Coordinate, _ startPoint: EarthCenteredPoint, _ endPoint: EarthCenteredPoint, geodesic: Geodesic) {
        let chord = startPoint.chord(to: endPoint)
        let sweep = Self.sweep(from: start, to: end)
        guard chord <= Self.longestBoundedChord, abs(sweep) < 180, abs(start.latitude) < 90, abs(end.latitude) < 90 else {
            self.init(from: start, to: end, inverse: geodesic.generalInverse(from: start, to: end))
            return
        }
        let length = GeodesicBounds.upper(chord: chord)
        let bulge = 0.5 * (max(0, length - chord + 1e-6) * (length + chord)).squareRoot()
        let lowZ = min(startPoint.z, endPoint.z) - bulge
        let highZ = max(startPoint.z, endPoint.z) + bulge
        self.init(
            start: start, end: end, sweep: sweep, startPoint: startPoint, endPoint: endPoint, chord: chord, bulge: bulge,
            band: (lowZ, highZ))
    }

    /// The edge from `start` to `end` whose inverse problem is `inverse`: the bulge from its
    /// length, the band from its azimuths.
    init(from start: Coordinate, to end: Coordinate, inverse: GeodesicInverse) {
        let sweep = Self.sweep(from: start, to: end)
        let startPoint = EarthCenteredPoint(start)
        let endPoint = EarthCenteredPoint(end)
        let chord = startPoint.chord(to: endPoint)
        let bulge = 0.5 * (max(0, inverse.distance - chord + 1e-6) * (inverse.distance + chord)).squareRoot()
        let (low, high) = Self.latitudeBand(start, end, inverse, sweep)
        func z(_ latitude: Double) -> Double { EarthCenteredPoint(Coordinate(latitude: latitude, longitude: 0)).z }
        self.init(
            start: start, end: end, sweep: sweep, startPoint: startPoint, endPoint: endPoint, chord: chord, bulge: bulge,
            band: (low <= -90 ? -.infinity : z(low), high >= 90 ? .infinity : z(high)))
    }

    private init(
        start: Coordinate, end: Coordinate, sweep: Double, startPoint: EarthCenteredPoint, endPoint: EarthCenteredPoint,
        chord: Double, bulge: Double, band: (Double, Double)
    ) {
        self.start = start
        self.end = end
        self.sweep = sweep
        self.startPoint = startPoint
        self.endPoint = endPoint
        inverseChordSquared = chord > 0 ? 1 / (chord * chord) : 0
        self.bulge = bulge
        lowestZ = band.0
        highestZ = band.1
    }

    /// The end's longitude minus the start's, reduced to (−180, 180]. A difference under 180 in
    /// size is its own remainder (the quotient rounds to 0), so the C library's `remainder` is
    /// called only for the others (it was a percent of the start-up of 10,000 polygons).
    @inline(__always)
    static func sweep(from start: Coordinate, to end: Coordinate) -> Double {
        let difference = end.longitude - start.longitude
        if abs(difference) < 180 { return difference }
        let sweep = remainder(difference, 360)
        return sweep == -180 ? 180 : sweep
    }

    /// Whether the edge passes through a pole between its ends (it is then two meridians).
    var passesPole: Bool { abs(sweep) == 180 && !touchesPole }
    /// Whether an end is a pole.
    var touchesPole: Bool { abs(start.latitude) == 90 || abs(end.latitude) == 90 }

    /// Bounds of the geodesic distance (metres) from the point `p` to the edge (see above). The
    /// upper bound is taken once, of the least of d + h, |PA| and |PB|: each is the chord to
    /// some point of the edge, and the bound holds for any such chord.
    public func distanceBounds(from p: EarthCenteredPoint) -> (lower: Double, upper: Double) {
        let d = chordSegmentDistance(from: p)
        let nearest = min(d + bulge, p.chord(to: startPoint), p.chord(to: endPoint))
        return (max(0, d - bulge - GeodesicBounds.margin), GeodesicBounds.upper(chord: nearest))
    }

    /// The lower bound alone.
    public func lowerBound(from p: EarthCenteredPoint) -> Double {
        max(0, chordSegmentDistance(from: p) - bulge - GeodesicBounds.margin)
    }

    /// Where along the chord AB (0 at A, 1 at B) the nearest of its points to `p` lies: the
    /// search's first estimate of the fraction along the edge.
    func chordFraction(of p: EarthCenteredPoint) -> Double {
        Self.chordFraction(of: p, startPoint, endPoint, inverseChordSquared: inverseChordSquared)
    }

    /// The straight-line distance from `p` to the chord segment AB, metres.
    func chordSegmentDistance(from p: EarthCenteredPoint) -> Double {
        Self.chordSegmentDistance(from: p, startPoint, endPoint, inverseChordSquared: inverseChordSquared)
    }

    /// `chordFraction(of:)` of the edge from `a` to `b` whose 1/c² is `inverseChordSquared`.
    @inline(__always)
    static func chordFraction(
        of p: EarthCenteredPoint, _ a: EarthCenteredPoint, _ b: EarthCenteredPoint, inverseChordSquared: Double
    ) -> Double {
        let (dx, dy, dz) = (b.x - a.x, b.y - a.y, b.z - a.z)
        let along = (p.x - a.x) * dx + (p.y - a.y) * dy + (p.z - a.z) * dz
        return min(max(along * inverseChordSquared, 0), 1)
    }

    /// `chordSegmentDistance(from:)` of the edge from `a` to `b` whose 1/c² is
    /// `inverseChordSquared`.
    @inline(__always)
    static func chordSegmentDistance(
        from p: EarthCenteredPoint, _ a: EarthCenteredPoint, _ b: EarthCenteredPoint, inverseChordSquared: Double
    ) -> Double {
        let t = chordFraction(of: p, a, b, inverseChordSquared: inverseChordSquared)
        let x = a.x + t * (b.x - a.x)
        let y = a.y + t * (b.y - a.y)
        let z = a.z + t * (b.z - a.z)
        return p.chord(to: EarthCenteredPoint(x: x, y: y, z: z))
    }

    /// The latitudes the edge spans. Along a geodesic dφ/ds has the sign of cos α, which
    /// changes only at a vertex, where |β| (reduced latitude) is largest: cos β₀ = |sin α₀| with
    /// sin α₀ = sin α₁ cos β₁ (Clairaut). An edge heading north at its start and south at its end
    /// passes its northern vertex, and so on; one longer than 10 000 km may pass both (vertices
    /// are half a circumference apart), so it gets both. A tolerance of 10⁻¹² in cos α includes
    /// a vertex at an end (harmless: it is then the end's latitude).
    private static func latitudeBand(
        _ start: Coordinate, _ end: Coordinate, _ inverse: GeodesicInverse, _ sweep: Double
    ) -> (Double, Double) {
        var low = min(start.latitude, end.latitude)
        var high = max(start.latitude, end.latitude)
        if abs(start.latitude) == 90 || abs(end.latitude) == 90 {
            // A meridian between the ends.
        } else if abs(sweep) == 180 {
            // Two meridians through the pole the edge heads for.
            if cos(inverse.azimuth1 * .pi / 180) > 0 { high = 90 } else { low = -90 }
        } else {
            let c1 = cos(inverse.azimuth1 * .pi / 180)
            let c2 = cos(inverse.azimuth2 * .pi / 180)
            let long = inverse.distance > 10_000_000
            let vertex = vertexLatitude(start.latitude, inverse.azimuth1)
            if long || (c1 >= -1e-12 && c2 <= 1e-12) { high = max(high, vertex) }
            if long || (c1 <= 1e-12 && c2 >= -1e-12) { low = min(low, -vertex) }
        }
        return (low - 1e-9, high + 1e-9)
    }

    /// |φ| of the vertex of the geodesic through latitude `latitude` at `azimuth` (degrees).
    private static func vertexLatitude(_ latitude: Double, _ azimuth: Double) -> Double {
        let f = EllipsoidConstants.flattening
        let phi = latitude * .pi / 180
        let beta1 = atan2((1 - f) * sin(phi), cos(phi))
        let sinAlpha0 = min(1, abs(sin(azimuth * .pi / 180) * cos(beta1)))
        let beta0 = acos(sinAlpha0)
        return atan2(sin(beta0), (1 - f) * cos(beta0)) * 180 / .pi
    }
}

extension GeodesicEdge {
    /// What an edge holds besides its ends and their Earth-centred points, which a chain keeps
    /// once for each vertex (`EdgeChain`): 40 bytes an edge and 24 a vertex (its coordinates
    /// shared with the catalog's ring), where whole edges were 120 bytes an edge (three quarters of `watch`'s memory with 10,000 polygon favourites,
    /// and of its page faults; see Benchmarks/LOG.md).
    struct Measures: Sendable {
        var sweep: Double
        let lowestZ: Double
        let highestZ: Double
        let bulge: Double
        let inverseChordSquared: Double
    }

    var measures: Measures {
        Measures(sweep: sweep, lowestZ: lowestZ, highestZ: highestZ, bulge: bulge, inverseChordSquared: inverseChordSquared)
    }

    /// The edge whose ends are `start` and `end` (with their points) and whose measures are
    /// `measures`: the same edge, field for field, as the one `measures` was taken from.
    init(start: Coordinate, end: Coordinate, _ startPoint: EarthCenteredPoint, _ endPoint: EarthCenteredPoint, _ measures: Measures) {
        self.start = start
        self.end = end
        self.startPoint = startPoint
        self.endPoint = endPoint
        sweep = measures.sweep
        lowestZ = measures.lowestZ
        highestZ = measures.highestZ
        bulge = measures.bulge
        inverseChordSquared = measures.inverseChordSquared
    }
}
