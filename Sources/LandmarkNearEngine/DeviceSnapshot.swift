import LandmarkNearCore

/// The engine's state of one device in terms that outlive one run: landmark ids rather than
/// positions, so it survives a restart with other options or a catalog reload (`--state`,
/// SIGHUP). Caches are not part of it; they are rebuilt on the next fix.
///
///     let saved = engine.snapshots()                 // before a reload
///     let fresh = try ProximityEngine(catalog: newCatalog, configuration: configuration)
///     for device in saved { fresh.restore(device) }  // landmarks that left are forgotten
public struct DeviceSnapshot: Sendable, Equatable {
    public var device: String
    /// The latest used timed fix.
    public var latestTime: Timestamp?
    /// Used fixes of the device so far (names the `.apns` files of untimed fixes).
    public var fixCount: Int
    /// The favourites the device is inside or was notified about.
    public var favorites: [FavoriteSnapshot]
    /// In `ProximityEngine.takeChanges()`: whether `favorites` changed (else only the clock
    /// and counter did).
    public var favoritesChanged: Bool

    public init(
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
public struct FavoriteSnapshot: Sendable, Equatable {
    public var landmarkID: Int
    public var isInside: Bool
    public var isNotified: Bool
    /// The fix time of the latest notification (nil: none, or an untimed fix).
    public var notifiedTime: Timestamp?

    public init(landmarkID: Int, isInside: Bool, isNotified: Bool, notifiedTime: Timestamp? = nil) {
        self.landmarkID = landmarkID
        self.isInside = isInside
        self.isNotified = isNotified
        self.notifiedTime = notifiedTime
    }
}
