/// Something the engine decided about one device and one favourite landmark on one fix.
public struct ProximityEvent: Sendable, Equatable {
    public enum Kind: String, Sendable { case enter, exit }

    /// Why an `enter` did not notify.
    public enum Suppression: String, Sendable {
        /// The device was notified for this landmark less than the cooldown ago.
        case cooldown
        /// The device's profile says `prefersNotifications: false`.
        case profile
    }

    public var kind: Kind
    /// The landmark's position in the catalog (its `landmarkIndex`).
    public var landmarkIndex: Int
    /// Geodesic distance from the fix to the landmark, in metres.
    public var distance: Double
    /// For `enter`: nil when it is a notification, else why not.
    public var suppression: Suppression?

    package init(kind: Kind, landmarkIndex: Int, distance: Double, suppression: Suppression? = nil) {
        self.kind = kind
        self.landmarkIndex = landmarkIndex
        self.distance = distance
        self.suppression = suppression
    }

    /// An `enter` that was not suppressed.
    public var isNotification: Bool { kind == .enter && suppression == nil }
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
