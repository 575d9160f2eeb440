/// Per-device settings from `--profiles FILE`: a JSON object mapping a device to
/// `{"favorites": [ids], "prefersNotifications": bool}`, both optional.
///
///     let profiles = try DeviceProfiles.parse(
///         Array(#"{"d1": {"favorites": [1002], "prefersNotifications": false}}"#.utf8),
///         source: "profiles.json")
///     profiles["d1"]?.prefersNotifications   // false
public struct DeviceProfiles: Sendable, Equatable {
    public struct Profile: Sendable, Equatable {
        /// Landmark ids; nil means the default favourites.
        public var favorites: [Int]?
        public var prefersNotifications: Bool

        public init(favorites: [Int]? = nil, prefersNotifications: Bool = true) {
            self.favorites = favorites
            self.prefersNotifications = prefersNotifications
        }
    }

    public private(set) var byDevice: [String: Profile] = [:]
    /// Keys of a profile that mean nothing here (a misspelt `"favourites"`, say): ignored, and
    /// told, with the closest known key when there is one.
    public private(set) var warnings: [String] = []

    /// The keys a profile may have.
    public static let knownKeys = ["favorites", "prefersNotifications"]

    public init(_ byDevice: [String: Profile] = [:], warnings: [String] = []) {
        self.byDevice = byDevice
        self.warnings = warnings
    }

    public subscript(device: String) -> Profile? { byDevice[device] }

    public static func load(path: String) throws(ProfilesError) -> DeviceProfiles {
        let bytes: [UInt8]
        do {
            bytes = try InputFile.read(path: path)
        } catch {
            throw ProfilesError(source: error.source, reason: error.reason, kind: error.kind)
        }
        return try parse(bytes, source: path)
    }

    public static func parse(_ bytes: [UInt8], source: String) throws(ProfilesError) -> DeviceProfiles {
        let json: JSONValue
        do {
            json = try JSONParser.parse(ByteOrderMark.dropped(from: bytes))
        } catch {
            throw ProfilesError(source: source, reason: error.description)
        }
        guard let root = json.objectValue else {
            throw ProfilesError(source: source, reason: "must be a JSON object mapping device names to profiles, not \(json.typeDescription)")
        }
        var profiles: [String: Profile] = [:]
        var warnings: [String] = []
        for (device, value) in root.members {
            let label = "device \(JSONWriter.quoted(device))"
            guard let object = value.objectValue else {
                throw ProfilesError(source: source, reason: "\(label): profile must be an object, not \(value.typeDescription)")
            }
            for key in object.keys where !knownKeys.contains(key) {
                let hint = Suggestion.closest(to: key, among: knownKeys).map { " (did you mean \(JSONWriter.quoted($0))?)" } ?? ""
                warnings.append("\(source): \(label): unknown key \(JSONWriter.quoted(key)) ignored\(hint); "
                                + "a profile takes \(knownKeys.map(JSONWriter.quoted).joined(separator: ", "))")
            }
            var profile = Profile()
            switch object["favorites"] {
            case nil, .null?: break
            case .array(let elements)?:
                var ids: [Int] = []
                for element in elements {
                    guard let id = element.integer else {
                        throw ProfilesError(source: source, reason: "\(label): favorites must hold integer landmark ids, found \(element.typeDescription)")
                    }
                    ids.append(id)
                }
                profile.favorites = ids
            case let other?:
                throw ProfilesError(source: source, reason: "\(label): favorites must be an array of landmark ids, not \(other.typeDescription)")
            }
            switch object["prefersNotifications"] {
            case nil, .null?: break
            case .bool(let flag)?: profile.prefersNotifications = flag
            case let other?:
                throw ProfilesError(source: source, reason: "\(label): prefersNotifications must be true or false, not \(other.typeDescription)")
            }
            profiles[device] = profile
        }
        return DeviceProfiles(profiles, warnings: warnings)
    }
}

/// A profiles file that cannot be used: refused content (`.badData`), or a file that cannot be
/// opened (`.missingInput`) or read (`.io`).
public struct ProfilesError: LandmarkNearError, Sendable, Equatable {
    public var source: String
    public var reason: String
    public var kind: ErrorKind = .badData
    public var description: String { "\(source): \(reason)" }
}
