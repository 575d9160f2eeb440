@_spi(Inlining) import LandmarkNearCore

/// Something the engine decided about one device and one favourite landmark on one fix.
public struct ProximityEvent: Sendable, Equatable {
    /// `dwell`: the device stayed inside for `--dwell` since it entered (`enteredAt`).
    public enum Kind: String, Sendable { case enter, exit, dwell }

    /// Why an `enter` did not notify.
    public enum Suppression: String, Sendable {
        /// The device was notified for this landmark less than the cooldown ago.
        case cooldown
        /// The device's profile says `prefersNotifications: false`.
        case profile
        /// With `--dwell`, an enter waits for its `dwell` event to notify.
        case dwell
        /// The fix time falls in the device's quiet hours (its profile's `quietHours`).
        case quiet
    }

    /// How an enter was found: `crossing`, on the geodesic between two fixes (`--crossing`).
    public enum Via: String, Sendable { case crossing }

    public var kind: Kind
    /// The landmark's position in the catalog (its `landmarkIndex`).
    public var landmarkIndex: Int
    /// Geodesic distance from the fix to the landmark, in metres.
    public var distance: Double
    /// For `enter` and `dwell`: nil when it is a notification, else why not.
    public var suppression: Suppression?
    /// An enter found between two fixes: how, where (the point of closest approach) and when
    /// (interpolated); nil for events of the fix itself.
    public var via: Via?
    public var point: Coordinate?
    public var time: Timestamp?
    /// For `dwell`: the time of its enter.
    public var enteredAt: Timestamp?

    package init(kind: Kind, landmarkIndex: Int, distance: Double, suppression: Suppression? = nil) {
        self.kind = kind
        self.landmarkIndex = landmarkIndex
        self.distance = distance
        self.suppression = suppression
    }

    /// An `enter` or a `dwell` that was not suppressed.
    public var isNotification: Bool { kind != .exit && suppression == nil }
}

/// What became of a fix.
public enum FixDisposition: Sendable, Equatable {
    /// The fix went through the state machine (it may or may not have produced events).
    case used
    /// The fix was not used.
    case dropped(DropReason)
}

/// Why a fix was not used (docs/reference/engine.md); counted in the summary, not errors.
public enum DropReason: String, Sendable, CaseIterable {
    /// Its coordinate is not a valid WGS84 position (readers normally reject these first).
    case invalid
    /// Its accuracy is worse than `--max-accuracy`.
    case accuracy
    /// Its time is not later than the device's latest used timed fix.
    case stale
}
