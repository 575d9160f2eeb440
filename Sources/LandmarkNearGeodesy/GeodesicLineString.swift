@_spi(Inlining) import LandmarkNearCore

/// A line of geodesic edges between consecutive vertices (GeoJSON's LineString): the geodesic
/// distance from a point to its nearest point.
///
///     let trail = GeodesicLineString([start, bend, summit])!
///     trail.distance(from: hiker)   // metres
@_spi(Inlining) public struct GeodesicLineString: Sendable {
    let chain: EdgeChain

    /// nil with no vertex or a latitude outside [−90, 90]; a single vertex is a point.
    public init?(_ vertices: [Coordinate], geodesic: Geodesic = .wgs84) {
        guard !vertices.isEmpty, vertices.allSatisfy({ $0.latitude.isFinite && $0.longitude.isFinite && abs($0.latitude) <= 90 })
        else { return nil }
        chain = EdgeChain(vertices: vertices, closed: false, geodesic: geodesic)
    }

    public var edges: [GeodesicEdge] { chain.edges }

    /// The geodesic distance (metres) from `p` to the line.
    public func distance(from p: Coordinate) -> Double {
        chain.distance(from: p, EarthCenteredPoint(p), below: .infinity)
    }

    /// The exact distance when below `limit`, else at least `limit`.
    func distance(from p: Coordinate, _ point: EarthCenteredPoint, below limit: Double) -> Double {
        chain.distance(from: p, point, below: limit)
    }
}

/// Several lines (GeoJSON's MultiLineString): the distance to the nearest.
@_spi(Inlining) public struct GeodesicMultiLineString: Sendable {
    public let lines: [GeodesicLineString]

    public init(_ lines: [GeodesicLineString]) {
        self.lines = lines
    }

    public func distance(from p: Coordinate) -> Double {
        let point = EarthCenteredPoint(p)
        var nearest = Double.infinity
        for line in lines {
            nearest = min(nearest, line.distance(from: p, point, below: nearest))
        }
        return nearest
    }
}
