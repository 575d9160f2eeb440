/// The system's time zone database (Debian's `tzdata`: one TZif file per IANA name under
/// /usr/share/zoneinfo), read by name, each zone once: the value keeps what it has read, so
/// that a profiles file naming Europe/Berlin for ten thousand devices reads it once and they
/// share one `ZoneRules`. It is owned by whoever reads a batch of
/// names (`ProfilesFile.parse`), never global.
///
///     var zones = TimeZoneDatabase()
///     let berlin = try zones.rules(named: "Europe/Berlin")
///     try zones.rules(named: "Mars/Base")   // TimeZoneError: "Mars/Base" is not a time zone in /usr/share/zoneinfo
package struct TimeZoneDatabase: Sendable {
    package static let systemDirectory = "/usr/share/zoneinfo"
    /// The largest zone file read: the biggest of tzdata 2025b is under 4 KiB.
    static let fileLimit = 1 << 20

    package let directory: String
    private var loaded: [String: ZoneRules] = [:]

    package init(directory: String = TimeZoneDatabase.systemDirectory) { self.directory = directory }

    /// The rules of zone `name` (an IANA name such as `America/New_York`, exact case).
    package mutating func rules(named name: String) throws(TimeZoneError) -> ZoneRules {
        if let rules = loaded[name] { return rules }
        // A name is a relative path of plain components: no `..`, no hidden files, nothing
        // the database does not name a zone with (letters, digits, `_`, `-`, `+`).
        let components = name.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        guard !name.isEmpty, name.utf8.count <= 255,
            components.allSatisfy({ component in
                guard let first = component.first, first != UInt8(ascii: ".") else { return false }
                return component.allSatisfy { byte in
                    (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
                        || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                        || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+")
                        || byte == UInt8(ascii: ".")
                }
            })
        else { throw TimeZoneError(zone: name, directory: directory, detail: nil) }
        let bytes: [UInt8]
        do {
            bytes = try InputFile.read(
                path: directory + "/" + name, limit: TimeZoneDatabase.fileLimit, tooLarge: "too large for a zone file")
        } catch {
            // Missing, a directory (`America`), unreadable: not a zone either way.
            throw TimeZoneError(zone: name, directory: directory, detail: error.kind == .missingInput ? nil : error.reason)
        }
        let rules: ZoneRules
        do {
            rules = try ZoneRules(tzif: bytes)
        } catch {
            throw TimeZoneError(zone: name, directory: directory, detail: "its file " + error.phrase)
        }
        loaded[name] = rules
        return rules
    }
}

/// A zone name the database does not have, or whose file cannot be used.
package struct TimeZoneError: LandmarkNearError, Sendable, Equatable {
    package var zone: String
    package var directory: String
    /// Why a file that exists cannot be used; nil when there is no such zone.
    package var detail: String?
    package var kind: ErrorKind { .badData }

    /// `"Mars/Base" is not a time zone in /usr/share/zoneinfo`.
    package var description: String {
        "\(TerminalText.quoted(zone)) is not a time zone in \(directory)" + (detail.map { " (\($0))" } ?? "")
    }
}
