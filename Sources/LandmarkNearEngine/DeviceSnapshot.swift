@_spi(Inlining) import LandmarkNearCore

/// The engine's state of one device in terms that outlive one run: landmark ids rather than
/// positions, so it survives a restart with other options or a catalog reload (`--state`,
/// SIGHUP). Caches are not part of it; they are rebuilt on the next fix.
///
///     let saved = engine.snapshots()                 // before a reload
///     let fresh = try ProximityEngine(catalog: newCatalog, configuration: configuration)
///     for device in saved { fresh.restore(device) }  // landmarks that left are forgotten
package struct DeviceSnapshot: Sendable, Equatable {
    package var device: String
    /// The latest used timed fix.
    package var latestTime: Timestamp?
    /// Used fixes of the device so far (names the `.apns` files of untimed fixes).
    package var fixCount: Int
    /// The favourites the device is inside or was notified about.
    package var favorites: [FavoriteSnapshot]
    /// In `ProximityEngine.takeChanges()`: whether `favorites` changed (else only the clock
    /// and counter did).
    package var favoritesChanged: Bool
    /// With `--crossing` or `--dwell`: where the latest used fix was, when it was timed (its
    /// time is `latestTime`): the start of the next pass.
    package var previousFix: Coordinate?
    /// Who is inside now (`serve`, docs/reference/state.md): the latest used fix, timed or
    /// not, and its time. Not the engine's: the pipeline keeps it where asked (`Whereabouts`).
    package var latestFix: Coordinate?
    package var latestFixTime: Timestamp?

    package init(
        device: String, latestTime: Timestamp? = nil, fixCount: Int = 0,
        favorites: [FavoriteSnapshot] = [], favoritesChanged: Bool = true
    ) {
        self.device = device
        self.latestTime = latestTime
        self.fixCount = fixCount
        self.favorites = favorites
        self.favoritesChanged = favoritesChanged
    }
}

/// One favourite of one device: inside it or not, and its latest notification.
package struct FavoriteSnapshot: Sendable, Equatable {
    package var landmarkID: Int
    package var isInside: Bool
    package var isNotified: Bool
    /// The fix time of the latest notification (nil: none, or an untimed fix).
    package var notifiedTime: Timestamp?
    /// With `--dwell`: when the device entered it, while its dwell is pending.
    package var enteredAt: Timestamp?
    /// When the device went inside (the entering fix's time), where the pipeline keeps it.
    package var since: Timestamp?
    /// Its `landmarkIndex` and name when saved (for `landmark-near devices`, which has no catalog).
    package var landmarkIndex: Int?
    package var landmarkName: String?

    package init(landmarkID: Int, isInside: Bool, isNotified: Bool, notifiedTime: Timestamp? = nil) {
        self.landmarkID = landmarkID
        self.isInside = isInside
        self.isNotified = isNotified
        self.notifiedTime = notifiedTime
    }
}
