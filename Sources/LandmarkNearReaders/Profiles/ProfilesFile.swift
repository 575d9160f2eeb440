@_spi(Inlining) import LandmarkNearCore
import LandmarkNearEngine

/// Reads `--profiles FILE`: a JSON object mapping a device to `{"favorites": [ids],
/// "prefersNotifications": bool, "apnsTokens": ["<hex>", ...], "quietHours": {"from": "22:00",
/// "to": "07:00", "timeZone": "Europe/Berlin"}}`, all optional (docs/reference/engine.md). Unknown
/// keys are kept as warnings, with the closest known key; a bad value refuses the whole file.
///
///     let profiles = try ProfilesFile.parse(
///         Array(#"{"d1": {"favorites": [1002], "prefersNotifications": false}}"#.utf8),
///         source: "profiles.json")
///     profiles["d1"]?.prefersNotifications   // false
public enum ProfilesFile {
    /// Reads the profiles at `path`: a file, a pipe, a FIFO or `/dev/stdin` (read once, in full).
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
            throw ProfilesError(
                source: source, reason: "must be a JSON object mapping device names to profiles, not \(json.typeDescription)")
        }
        var entries: [DeviceKey: DeviceProfiles.Profile] = [:]
        var warnings: [String] = []
        // Owned by this parse: each zone file is read once, and its profiles share the rules.
        var zones = TimeZoneDatabase()
        for (device, value) in root.members {
            entries[DeviceKey(device)] = try profile(value, device: device, source: source, zones: &zones, warnings: &warnings)
        }
        return DeviceProfiles(entries: entries, warnings: warnings)
    }

    /// One profile (the value of one device's member), as `parse` reads each: the admin API
    /// takes profiles one at a time. Unknown keys are appended to `warnings`; `zones` reads
    /// each time zone once across calls.
    package static func profile(
        _ value: JSONValue, device: String, source: String, zones: inout TimeZoneDatabase, warnings: inout [String]
    ) throws(ProfilesError) -> DeviceProfiles.Profile {
        let label = "device \(TerminalText.quoted(device))"
        guard let object = value.objectValue else {
            throw ProfilesError(source: source, reason: "\(label): profile must be an object, not \(value.typeDescription)")
        }
        for key in object.keys where !DeviceProfiles.knownKeys.contains(key) {
            let hint =
                Suggestion.closest(to: key, among: DeviceProfiles.knownKeys).map { " (did you mean \(JSONWriter.quoted($0))?)" } ?? ""
            warnings.append(
                "\(source): \(label): unknown key \(TerminalText.quoted(key)) ignored\(hint); "
                    + "a profile takes \(DeviceProfiles.knownKeys.map(JSONWriter.quoted).joined(separator: ", "))")
        }
        var profile = DeviceProfiles.Profile()
        switch object["favorites"] {
        case nil, .null?: break
        case .array(let elements)?:
            var ids: [Int] = []
            for element in elements {
                guard let id = element.integer else {
                    throw ProfilesError(
                        source: source, reason: "\(label): favorites must hold integer landmark ids, found \(element.typeDescription)")
                }
                ids.append(id)
            }
            profile.favorites = ids
        case let other?:
            throw ProfilesError(
                source: source, reason: "\(label): favorites must be an array of landmark ids, not \(other.typeDescription)")
        }
        switch object["prefersNotifications"] {
        case nil, .null?: break
        case .bool(let flag)?: profile.prefersNotifications = flag
        case let other?:
            throw ProfilesError(
                source: source, reason: "\(label): prefersNotifications must be true or false, not \(other.typeDescription)")
        }
        switch object["apnsTokens"] {
        case nil, .null?: break
        case .array(let elements)?:
            for (position, element) in elements.enumerated() {
                // The token itself is a secret: the message names its position only.
                guard case .string(let text) = element, let token = DeviceToken.normalized(text) else {
                    throw ProfilesError(
                        source: source,
                        reason: "\(label): apnsTokens[\(position)] is not a device token (an even number of hex digits, at most 200)")
                }
                if !profile.apnsTokens.contains(token) { profile.apnsTokens.append(token) }
            }
        case let other?:
            throw ProfilesError(
                source: source, reason: "\(label): apnsTokens must be an array of hex strings, not \(other.typeDescription)")
        }
        do {
            profile.quietHours = try QuietHoursField.parse(object["quietHours"], zones: &zones)
        } catch {
            throw ProfilesError(source: source, reason: "\(label): \(error.description)")
        }
        return profile
    }
}

/// A profiles file that cannot be used: refused content (`.badData`), or a file that cannot be
/// opened (`.missingInput`) or read (`.io`).
public struct ProfilesError: LandmarkNearError, Sendable, Equatable {
    public var source: String
    public var reason: String
    public var kind: ErrorKind = .badData
    public var description: String { "\(source): \(reason)" }

    package init(source: String, reason: String, kind: ErrorKind = .badData) {
        self.source = source
        self.reason = reason
        self.kind = kind
    }
}
