@_spi(Inlining) import LandmarkNearCore
import LandmarkNearIndex

/// What `landmark-near nearest` asks of the index: the `limit` nearest landmarks, and with
/// `within` only those at most that far (docs/reference/commands.md).
///
///     let query = NearestQuery(limit: 3, within: try Length(parsing: "5mi"))
///     query.answer(Coordinate(latitude: 34.0, longitude: -116.17), in: LandmarkIndex(catalog: .embedded))
package struct NearestQuery: Sendable, Equatable {
    /// How many landmarks at most (>= 1).
    package var limit: Int
    package var within: Length?
    /// Landmarks' own radii by index (docs/reference/catalogs.md: a catalog `radius` replaces the run's radius for
    /// its landmark): with `within`, such a landmark counts as within at its own radius.
    package var ownRadii: [Double?] {
        didSet { largestOwnRadius = ownRadii.lazy.compactMap { $0 }.max() ?? 0 }
    }
    /// The largest of `ownRadii` (0 when none): no landmark farther than this and `within` can
    /// count as within.
    private var largestOwnRadius: Double

    package init(limit: Int = 1, within: Length? = nil, ownRadii: [Double?] = []) {
        self.limit = limit
        self.within = within
        self.ownRadii = ownRadii
        self.largestOwnRadius = ownRadii.lazy.compactMap { $0 }.max() ?? 0
    }

    /// The answers, nearest first (ties by index).
    package func answer(_ point: Coordinate, in index: LandmarkIndex) -> [LandmarkNeighbor] {
        answer(point, in: .points(index))
    }

    /// The answers, nearest first (ties by index); a place's distance is 0 inside an area, else
    /// to its nearest edge.
    package func answer(_ point: Coordinate, in index: NearestSearch) -> [LandmarkNeighbor] {
        // Without landmarks of their own radius, the index answers "within" itself (and stops early).
        guard let within, !ownRadii.isEmpty else { return index.nearest(to: point, limit: limit, within: within?.meters ?? .infinity) }
        let radius = within.meters
        // A landmark with a radius of its own counts at that radius, so the `limit` nearest of
        // all may hold some that are not within while farther ones are: ask for more (4 times
        // as many each round) until `limit` are within or the index has no more that could be.
        let reach = max(radius, largestOwnRadius)
        var asked = limit
        while true {
            let nearest = index.nearest(to: point, limit: asked, within: reach)
            let kept = nearest.filter { neighbor in
                let own = neighbor.index < ownRadii.count ? ownRadii[neighbor.index] : nil
                return neighbor.distance <= (own ?? radius)
            }
            if kept.count >= limit || nearest.count < asked { return Array(kept.prefix(limit)) }
            asked = asked > Int.max / 4 ? Int.max : asked * 4
        }
    }
}
