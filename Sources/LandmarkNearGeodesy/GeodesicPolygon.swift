@_spi(Inlining) import LandmarkNearCore

/// An area with geodesic edges: a shell ring and holes (GeoJSON's Polygon), each ring bounding
/// the smaller region it divides the ellipsoid into (`GeodesicRing`). A point is in the area if
/// it is in the shell and in no hole, or on any ring; its distance from the area is 0 there,
/// else the distance to the nearest edge of any ring.
///
///     let lake = GeodesicPolygon(shell: shore, holes: [island])!
///     lake.distance(from: boat)   // 0 on the water, metres to the shore or the island elsewhere
@_spi(Inlining) public struct GeodesicPolygon: Sendable {
    public let shell: GeodesicRing
    public let holes: [GeodesicRing]

    /// nil if any ring is not a ring (`GeodesicRing.init`).
    public init?(shell: [Coordinate], holes: [[Coordinate]] = [], geodesic: Geodesic = .wgs84) {
        guard let shell = GeodesicRing(shell, geodesic: geodesic) else { return nil }
        var rings: [GeodesicRing] = []
        for hole in holes {
            guard let ring = GeodesicRing(hole, geodesic: geodesic) else { return nil }
            rings.append(ring)
        }
        self.shell = shell
        self.holes = rings
    }

    /// Whether `p` is in the area (its boundary included).
    public func contains(_ p: Coordinate) -> Bool {
        contains(p, EarthCenteredPoint(p))
    }

    /// `contains(p)`, where `point` is `p`'s Earth-centred point (`GeodesicRing.locate(_:_:)`).
    public func contains(_ p: Coordinate, _ point: EarthCenteredPoint) -> Bool {
        switch shell.locate(p, point) {
        case .outside: return false
        case .boundary: return true
        case .inside:
            for hole in holes {
                switch hole.locate(p, point) {
                case .inside: return false
                case .boundary: return true
                case .outside: continue
                }
            }
            return true
        }
    }

    /// The geodesic distance (metres) from `p` to the area: 0 in it.
    public func distance(from p: Coordinate) -> Double {
        let point = EarthCenteredPoint(p)
        return contains(p, point) ? 0 : boundaryDistance(from: p, point, below: .infinity)
    }

    /// The exact distance from `p` to the nearest ring when below `limit`, else at least
    /// `limit`.
    func boundaryDistance(from p: Coordinate, _ point: EarthCenteredPoint, below limit: Double) -> Double {
        var nearest = shell.boundaryDistance(from: p, point, below: limit)
        for hole in holes {
            nearest = min(nearest, hole.boundaryDistance(from: p, point, below: min(limit, nearest)))
        }
        return nearest
    }
}

/// Several areas (GeoJSON's MultiPolygon): a point is in it if it is in any of them; its
/// distance is 0 there, else the least over them.
@_spi(Inlining) public struct GeodesicMultiPolygon: Sendable {
    public let polygons: [GeodesicPolygon]

    public init(_ polygons: [GeodesicPolygon]) {
        self.polygons = polygons
    }

    /// The areas of a shape, each its rings with the shell first; nil when a ring is not a
    /// ring (the catalog readers refuse those first).
    public init?(areas: [[[Coordinate]]], geodesic: Geodesic = .wgs84) {
        var made: [GeodesicPolygon] = []
        for rings in areas {
            guard let shell = rings.first, let polygon = GeodesicPolygon(shell: shell, holes: Array(rings.dropFirst()), geodesic: geodesic)
            else { return nil }
            made.append(polygon)
        }
        self.init(made)
    }

    public func contains(_ p: Coordinate) -> Bool {
        contains(p, EarthCenteredPoint(p))
    }

    /// `contains(p)`, where `point` is `p`'s Earth-centred point.
    public func contains(_ p: Coordinate, _ point: EarthCenteredPoint) -> Bool {
        // Through the buffer: each polygon is read in place, where `polygons.contains { … }`
        // copied it (retaining its rings' arrays) for every fix (measured: 2 % of a replay).
        for i in polygons.indices {
            // The shell's ball first, read in place: calling `contains` copies the polygon
            // (retaining its rings' storage), and most polygons near a fix are outside it.
            if polygons[i].shell.isOutsideBall(point) { continue }
            if polygons[i].contains(p, point) { return true }
        }
        return false
    }

    /// The geodesic distance (metres) from `p` to the nearest of the areas: 0 in one.
    public func distance(from p: Coordinate) -> Double {
        let point = EarthCenteredPoint(p)
        if contains(p, point) { return 0 }
        var nearest = Double.infinity
        for polygon in polygons {
            nearest = min(nearest, polygon.boundaryDistance(from: p, point, below: nearest))
        }
        return nearest
    }
}
