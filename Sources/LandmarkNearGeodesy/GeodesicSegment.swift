@_spi(Inlining) import LandmarkNearCore

/// The geodesic from one point to another (an edge of an area or a line, or the path between
/// two fixes) and the exact WGS84 distance from a point to its nearest point.
///
///     let edge = GeodesicSegment(
///         from: Coordinate(latitude: 60, longitude: 10), to: Coordinate(latitude: 60, longitude: 11.8))
///     let approach = edge.nearestApproach(to: Coordinate(latitude: 60, longitude: 10.9))
///     approach.distance   // 341.6 m: the 100 km edge bulges north of the 60th parallel
///     approach.point      // 60.003066, 10.9
///     approach.fraction   // 0.5: also the time fraction between two fixes at constant speed
@_spi(Inlining) public struct GeodesicSegment: Sendable {
    /// The edge's endpoints and what its bounds need (`GeodesicEdge`).
    public let edge: GeodesicEdge
    /// The forward azimuth at the start, degrees clockwise from north.
    public let azimuth: Double
    /// Metres.
    public let length: Double
    let line: GeodesicLine
    let geodesic: Geodesic

    /// The shortest geodesic from `start` to `end` (latitudes in [−90, 90]; any longitudes,
    /// 179 → 181 included).
    public init(from start: Coordinate, to end: Coordinate, geodesic: Geodesic = .wgs84) {
        let inverse = geodesic.generalInverse(from: start, to: end)
        self.init(GeodesicEdge(from: start, to: end, inverse: inverse), inverse: inverse, geodesic: geodesic)
    }

    /// The segment of an edge: its inverse problem solved now (one `geod_inverse`).
    public init(_ edge: GeodesicEdge, geodesic: Geodesic = .wgs84) {
        self.init(edge, inverse: geodesic.generalInverse(from: edge.start, to: edge.end), geodesic: geodesic)
    }

    init(_ edge: GeodesicEdge, inverse: GeodesicInverse, geodesic: Geodesic) {
        self.edge = edge
        self.geodesic = geodesic
        azimuth = inverse.azimuth1
        length = inverse.distance
        line = geodesic.line(from: edge.start, azimuth: inverse.azimuth1)
    }

    public var start: Coordinate { edge.start }
    public var end: Coordinate { edge.end }

    /// The point `distance` metres from the start along the segment (clamped to it).
    public func point(atDistance distance: Double) -> Coordinate {
        if distance <= 0 { return edge.start }
        if distance >= length { return edge.end }
        return line.position(at: distance).coordinate
    }

    /// The nearest point of the segment to `p`, its distance within nanometres of the exact
    /// geodesic distance, and within 0.1 mm where P is about a quarter meridian from the
    /// segment (`SegmentSearch` says how and why). No allocation.
    public func nearestApproach(to p: Coordinate) -> SegmentApproach {
        nearestApproach(to: p, EarthCenteredPoint(p))
    }

    /// `nearestApproach(to:)` when the caller has `p`'s Earth-centred point.
    public func nearestApproach(to p: Coordinate, _ point: EarthCenteredPoint) -> SegmentApproach {
        guard length > 0 else {
            return SegmentApproach(distance: geodesic.distance(from: p, to: edge.start), point: edge.start, distanceAlong: 0, fraction: 0)
        }
        var search = SegmentSearch(segment: self, target: p)
        let best = search.run(from: edge.chordFraction(of: point) * length)
        return SegmentApproach(
            distance: best.distance, point: best.point, distanceAlong: best.along, fraction: best.along / length)
    }
}

/// Where a segment comes nearest to a point.
@_spi(Inlining) public struct SegmentApproach: Sendable, Hashable {
    /// The geodesic distance from the point to `point`, metres.
    public var distance: Double
    /// The nearest point of the segment (the first found where several are equally near, as
    /// from a pole to an arc of the equator).
    public var point: Coordinate
    /// From the segment's start to `point` along it, metres.
    public var distanceAlong: Double
    /// `distanceAlong` / length, in [0, 1] (0 for a segment of length 0).
    public var fraction: Double

    public init(distance: Double, point: Coordinate, distanceAlong: Double, fraction: Double) {
        self.distance = distance
        self.point = point
        self.distanceAlong = distanceAlong
        self.fraction = fraction
    }
}
