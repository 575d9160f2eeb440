@_spi(Inlining) import LandmarkNearCore
@_spi(Inlining) import LandmarkNearGeodesy

/// The exact geodesic distance from a point to a place — the same value as
/// `GeodesicShape.distance(from:)`, 0 in an area, else the distance to the nearest edge — for
/// the many points an outline asks about, without going over every edge of a big place each time.
///
/// The edges are taken in runs of 32, each with a cap that holds it (`GeodesicShape`'s centre
/// and reach); no edge of a run is nearer to P than the straight chord from P to the cap's
/// centre less the reach (a chord is never longer than the geodesic), so runs are measured
/// nearest bound first and the rest are ruled out once a bound reaches the best distance so far.
/// Each run's distance is its edges' exact one, so the least over the runs is the place's. Inside
/// an area the distance is 0, by the polygons' own containment test.
///
///     let measure = PlaceDistance(shoreline)!     // 2,000 vertices
///     measure.distance(from: boat)                // what GeodesicShape(shoreline)!.distance(from: boat) says
struct PlaceDistance: Sendable {
    private struct Run: Sendable {
        var edges: GeodesicShape
        var center: EarthCenteredPoint
        var reach: Double
    }

    private let areas: GeodesicMultiPolygon?
    private let runs: [Run]

    /// nil when the shape is not a place (`GeodesicShape` refuses it).
    init?(_ shape: LandmarkShape, geodesic: Geodesic = .wgs84) {
        let paths: [[Coordinate]]
        switch shape {
        case .areas(let polygons):
            guard let made = GeodesicMultiPolygon(areas: polygons, geodesic: geodesic) else { return nil }
            areas = made
            paths = polygons.flatMap { $0 }
        case .lines(let lines):
            areas = nil
            paths = lines
        }
        var runs: [Run] = []
        for path in paths {
            // Runs of 32 edges sharing their end vertices; a path of one position is a point.
            var start = 0
            repeat {
                let run = Array(path[start...min(start + 32, path.count - 1)])
                guard let edges = GeodesicShape(.lines([run]), geodesic: geodesic) else { return nil }
                runs.append(Run(edges: edges, center: EarthCenteredPoint(edges.center), reach: edges.reach))
                start += 32
            } while start < path.count - 1
        }
        guard !runs.isEmpty else { return nil }
        self.runs = runs
    }

    /// The geodesic distance (metres) from `p` to the place: 0 in an area (its boundary
    /// included), else to its nearest edge.
    func distance(from p: Coordinate) -> Double {
        if let areas, areas.contains(p) { return 0 }
        let point = EarthCenteredPoint(p)
        let bounds = runs.map { point.chord(to: $0.center) - $0.reach }
        var nearest = Double.infinity
        for index in bounds.indices.sorted(by: { bounds[$0] < bounds[$1] }) {
            if bounds[index] >= nearest { break }
            nearest = min(nearest, runs[index].edges.distance(from: p))
        }
        return nearest
    }
}
