@_spi(Inlining) import LandmarkNearCore
import LandmarkNearEngine

/// A profile's `quietHours` member: `{"from": "22:00", "to": "07:00", "timeZone": "Europe/Berlin"}`,
/// all three required (null or absent: no quiet hours). Read by `ProfilesFile` and by whatever
/// takes one profile at a time (the admin API's `PUT /profiles/DEVICE`).
///
///     var zones = TimeZoneDatabase()
///     let night = try QuietHoursField.parse(profile["quietHours"], zones: &zones)
///
/// Strict, unlike a profile's own keys (an unknown one is a warning there): a member it does
/// not know (`"days"`, a misspelt `"timezone"`) would leave the window other than meant, so it
/// refuses the profile.
package enum QuietHoursField {
    package static let keys = ["from", "to", "timeZone"]

    package static func parse(_ value: JSONValue?, zones: inout TimeZoneDatabase) throws(QuietHoursError) -> QuietHours? {
        guard let value, !value.isNull else { return nil }
        guard let object = value.objectValue else {
            throw QuietHoursError(
                field: "",
                reason: "must be an object such as {\"from\": \"22:00\", \"to\": \"07:00\", \"timeZone\": \"Europe/Berlin\"}, "
                    + "not \(value.typeDescription)")
        }
        let takes = "it takes \(keys.map(JSONWriter.quoted).joined(separator: ", "))"
        for key in object.keys where !keys.contains(key) {
            let hint = Suggestion.closest(to: key, among: keys).map { " (did you mean \(JSONWriter.quoted($0))?)" } ?? ""
            throw QuietHoursError(field: "", reason: "has an unknown key \(TerminalText.quoted(key))\(hint); \(takes)")
        }
        var texts: [String] = []
        for key in keys {
            switch object[key] {
            case .string(let text)?: texts.append(text)
            case nil, .null?: throw QuietHoursError(field: key, reason: "is missing; \(takes)")
            case let other?: throw QuietHoursError(field: key, reason: "must be a string, not \(other.typeDescription)")
            }
        }
        return try QuietHours(from: texts[0], to: texts[1], timeZone: texts[2], zones: &zones)
    }

    /// The member's JSON, as `parse` reads it back (for `GET /profiles/DEVICE`):
    /// `{"from":"22:00","to":"07:00","timeZone":"Europe/Berlin"}`.
    package static func json(_ quietHours: QuietHours) -> String {
        "{\"from\":\"\(QuietHours.clock(quietHours.from))\",\"to\":\"\(QuietHours.clock(quietHours.to))\",\"timeZone\":"
            + JSONWriter.quoted(quietHours.zone) + "}"
    }
}
