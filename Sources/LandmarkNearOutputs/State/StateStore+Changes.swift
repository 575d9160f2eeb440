@_spi(Inlining) import LandmarkNearCore

/// A landmark as `serve`'s API last left it (`PUT` or `DELETE /landmarks/ID`).
package struct LandmarkChange: Sendable, Equatable {
    package var id: Int
    /// Its `landmarkIndex` when it was changed.
    package var position: Int
    /// The GeoJSON Feature in force (compact JSON); nil: deleted.
    package var feature: String?

    package init(id: Int, position: Int, feature: String?) {
        self.id = id
        self.position = position
        self.feature = feature
    }
}

/// A device's profile as `serve`'s API last left it (`PUT` or `DELETE /profiles/DEVICE`).
package struct ProfileChange: Sendable, Equatable {
    package var device: String
    /// The profile object in force (compact JSON); nil: deleted.
    package var profile: String?

    package init(device: String, profile: String?) {
        self.device = device
        self.profile = profile
    }
}

/// The changes `serve` took over its API, kept so that they survive restarts: they are applied
/// over the `--landmarks` and `--profiles` files at every start (docs/reference/state.md). One
/// row per landmark id and per device, the latest change; each write is its own transaction
/// (a change is a few hundred bytes, and admins make a few a minute, not thousands a second).
extension StateStore {
    /// Every landmark change, in position order (the order they are applied in).
    package func loadLandmarkChanges() throws(StateError) -> [LandmarkChange] {
        let query = try database.prepare("SELECT landmark_id, position, feature FROM landmark_changes ORDER BY position, landmark_id")
        var changes: [LandmarkChange] = []
        while try query.step() {
            changes.append(
                LandmarkChange(id: Int(query.int64(0) ?? 0), position: Int(query.int64(1) ?? 0), feature: query.string(2)))
        }
        return changes
    }

    /// Every profile change.
    package func loadProfileChanges() throws(StateError) -> [ProfileChange] {
        let query = try database.prepare("SELECT device, profile FROM profile_changes")
        var changes: [ProfileChange] = []
        while try query.step() { changes.append(ProfileChange(device: query.string(0) ?? "", profile: query.string(1))) }
        return changes
    }

    package func save(_ change: LandmarkChange, by user: String?) throws(StateError) {
        let statement = try database.prepare(
            "INSERT OR REPLACE INTO landmark_changes (landmark_id, position, feature, changed_by, changed_at) VALUES (?1, ?2, ?3, ?4, ?5)")
        statement.bind(1, change.id)
        statement.bind(2, change.position)
        statement.bind(3, change.feature)
        statement.bind(4, user)
        statement.bind(5, StateStore.wallClock())
        try statement.run()
    }

    package func save(_ change: ProfileChange, by user: String?) throws(StateError) {
        let statement = try database.prepare(
            "INSERT OR REPLACE INTO profile_changes (device, profile, changed_by, changed_at) VALUES (?1, ?2, ?3, ?4)")
        statement.bind(1, change.device)
        statement.bind(2, change.profile)
        statement.bind(3, user)
        statement.bind(4, StateStore.wallClock())
        try statement.run()
    }
}
