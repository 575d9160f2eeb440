@_spi(Inlining) import LandmarkNearCore

/// Per-device settings from `--profiles FILE`: a JSON object mapping a device to
/// `{"favorites": [ids], "prefersNotifications": bool, "apnsTokens": ["<hex>", ...],
/// "quietHours": {"from": "22:00", "to": "07:00", "timeZone": "Europe/Berlin"}}`, all optional.
///
///     let profiles = DeviceProfiles(["d1": .init(favorites: [1002], prefersNotifications: false)])
///     profiles["d1"]?.prefersNotifications   // false
///
/// `ProfilesFile` reads them from JSON.
public struct DeviceProfiles: Sendable, Equatable {
    public struct Profile: Sendable, Equatable {
        /// Landmark ids; nil means the default favourites.
        public var favorites: [Int]?
        public var prefersNotifications: Bool
        /// APNs device tokens, lower-case hex (`--push apns` sends to each of them).
        public var apnsTokens: [String]
        /// Notifications in this daily window of local time are suppressed (`quiet`).
        public var quietHours: QuietHours?

        public init(
            favorites: [Int]? = nil, prefersNotifications: Bool = true, apnsTokens: [String] = [], quietHours: QuietHours? = nil
        ) {
            self.favorites = favorites
            self.prefersNotifications = prefersNotifications
            self.apnsTokens = apnsTokens
            self.quietHours = quietHours
        }
    }

    /// By device name bytes: "café" (U+00E9) and "cafe" + U+0301 are two devices (docs/reference/fixes.md).
    package internal(set) var entries: [DeviceKey: Profile] = [:]
    /// Keys of a profile that mean nothing here (a misspelt `"favourites"`, say): ignored, and
    /// told, with the closest known key when there is one.
    package internal(set) var warnings: [String] = []

    /// The keys a profile may have.
    package static let knownKeys = ["favorites", "prefersNotifications", "apnsTokens", "quietHours"]

    public init(_ byDevice: [String: Profile] = [:], warnings: [String] = []) {
        for (device, profile) in byDevice { entries[DeviceKey(device)] = profile }
        self.warnings = warnings
    }

    /// Profiles keyed by device name bytes, as a reader makes them.
    package init(entries: [DeviceKey: Profile], warnings: [String]) {
        self.entries = entries
        self.warnings = warnings
    }

    public subscript(device: String) -> Profile? { entries[DeviceKey(device)] }

    /// The device names with a profile.
    public var devices: [String] { entries.keys.map(\.name) }
}
