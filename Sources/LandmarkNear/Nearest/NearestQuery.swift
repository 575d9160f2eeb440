/// What `landmark-near nearest` asks of the index: the `limit` nearest landmarks, and with
/// `within` only those at most that far (SPEC §8).
///
///     let query = NearestQuery(limit: 3, within: try Length(parsing: "5mi"))
///     query.answer(Coordinate(latitude: 34.0, longitude: -116.17), in: LandmarkIndex(catalog: .embedded))
package struct NearestQuery: Sendable, Equatable {
    /// How many landmarks at most (>= 1).
    package var limit: Int
    package var within: Length?

    package init(limit: Int = 1, within: Length? = nil) {
        self.limit = limit
        self.within = within
    }

    /// The answers, nearest first (ties by index).
    package func answer(_ point: Coordinate, in index: LandmarkIndex) -> [LandmarkNeighbor] {
        index.nearest(to: point, limit: limit, within: within?.meters ?? .infinity)
    }
}
