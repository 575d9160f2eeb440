@_spi(Inlining) import LandmarkNearCore
import LandmarkNearEngine

/// One device's profile object, as `serve` takes it (`PUT /profiles/DEVICE`): read by
/// `ProfilesFile` itself, as the one member of a profiles object, so that it is checked and
/// refused exactly as a `--profiles` file's entry for that device would be.
///
///     let read = try ProfileObject.read(Array(#"{"favorites":[1002]}"#.utf8), device: "alice/phone")
///     read.profile.favorites   // [1002]
package enum ProfileObject {
    package struct Read: Sendable {
        package var profile: DeviceProfiles.Profile
        /// The object as given (kept, and shown by `GET /profiles/DEVICE`).
        package var object: JSONValue
        /// Unknown keys, ignored as in a file.
        package var warnings: [String]
    }

    package static func read(_ body: [UInt8], device: String, source: String) throws(ProfilesError) -> Read {
        let json: JSONValue
        do {
            json = try JSONParser.parse(ByteOrderMark.dropped(from: body))
        } catch {
            throw ProfilesError(source: source, reason: error.description)
        }
        let wrapped = JSONWriter.serialize(.object(JSONObject([(device, json)])))
        let profiles = try ProfilesFile.parse(Array(wrapped.utf8), source: source)
        guard let profile = profiles[device] else {
            throw ProfilesError(source: source, reason: "device \(TerminalText.quoted(device)): no profile")
        }
        return Read(profile: profile, object: json, warnings: profiles.warnings)
    }

    /// A profile from a file as a profile object (`GET /profiles/DEVICE` of a device no
    /// `PUT` changed). Keys the value does not hold are not shown.
    package static func object(of profile: DeviceProfiles.Profile) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = []
        if let favorites = profile.favorites { members.append(("favorites", .array(favorites.map { .number(Double($0)) }))) }
        members.append(("prefersNotifications", .bool(profile.prefersNotifications)))
        if !profile.apnsTokens.isEmpty { members.append(("apnsTokens", .array(profile.apnsTokens.map(JSONValue.string)))) }
        if let quiet = profile.quietHours {
            members.append(
                (
                    "quietHours",
                    .object(
                        JSONObject([
                            ("from", .string(QuietHours.clock(quiet.from))), ("to", .string(QuietHours.clock(quiet.to))),
                            ("timeZone", .string(quiet.zone)),
                        ]))
                ))
        }
        return .object(JSONObject(members))
    }
}
