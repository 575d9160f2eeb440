import Foundation

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

    /// By device name bytes: "café" (U+00E9) and "cafe" + U+0301 are two devices (SPEC §3).
    private(set) var entries: [DeviceKey: Profile] = [:]

    public init(_ byDevice: [String: Profile] = [:]) {
        for (device, profile) in byDevice { entries[DeviceKey(device)] = profile }
    }

    public subscript(device: String) -> Profile? { entries[DeviceKey(device)] }

    /// The device names with a profile.
    public var devices: [String] { entries.keys.map(\.name) }

    /// Reads the profiles at `path`: a file, a pipe, a FIFO or `/dev/stdin` (read once, in full).
    public static func load(path: String) throws(ProfilesError) -> DeviceProfiles {
        let bytes: [UInt8]
        do {
            bytes = try WholeFile.read(path)
        } catch {
            switch error {
            case .missing: throw ProfilesError(source: path, reason: "no such file", isMissingFile: true)
            case .unreadable(let reason): throw ProfilesError(source: path, reason: "cannot be read: \(reason)")
            case .tooLarge: throw ProfilesError(source: path, reason: "is larger than 1 GiB")
            }
        }
        return try parse(bytes, source: path)
    }

    public static func parse(_ bytes: [UInt8], source: String) throws(ProfilesError) -> DeviceProfiles {
        let json: JSONValue
        do {
            json = try JSONParser.parse(bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes)
        } catch {
            throw ProfilesError(source: source, reason: error.description)
        }
        guard let root = json.objectValue else {
            throw ProfilesError(source: source, reason: "must be a JSON object mapping device names to profiles, not \(json.typeDescription)")
        }
        var profiles = DeviceProfiles()
        for (device, value) in root.members {
            let label = "device \(JSONWriter.quoted(device))"
            guard let object = value.objectValue else {
                throw ProfilesError(source: source, reason: "\(label): profile must be an object, not \(value.typeDescription)")
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
            profiles.entries[DeviceKey(device)] = profile
        }
        return profiles
    }
}

/// A profiles file that cannot be used.
public struct ProfilesError: Error, Sendable, Equatable, CustomStringConvertible {
    public var source: String
    public var reason: String
    public var isMissingFile: Bool = false
    public var description: String { "\(source): \(reason)" }
}
