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
    package var ownRadii: [Double?]

    package init(limit: Int = 1, within: Length? = nil, ownRadii: [Double?] = []) {
        self.limit = limit
        self.within = within
        self.ownRadii = ownRadii
    }

    /// The answers, nearest first (ties by index).
    package func answer(_ point: Coordinate, in index: LandmarkIndex) -> [LandmarkNeighbor] {
        answer(point, in: .points(index))
    }

    /// The answers, nearest first (ties by index); a place's distance is 0 inside an area, else
    /// to its nearest edge.
    package func answer(_ point: Coordinate, in index: NearestSearch) -> [LandmarkNeighbor] {
        // Without landmarks of their own radius, the index answers "within" itself (and stops early).
        guard !ownRadii.isEmpty else { return index.nearest(to: point, limit: limit, within: within?.meters ?? .infinity) }
        let nearest = index.nearest(to: point, limit: limit)
        guard let within else { return nearest }
        let radius = within.meters
        return nearest.filter { neighbor in
            let own = neighbor.index < ownRadii.count ? ownRadii[neighbor.index] : nil
            return neighbor.distance <= (own ?? radius)
        }
    }
}
