@_spi(Inlining) import LandmarkNearCore

/// A device's quiet hours (a profile's `quietHours`, docs/reference/engine.md): a daily window
/// of local wall-clock time in an IANA zone of the system's database, during which its
/// notifications are suppressed (`"reason":"quiet"`).
///
///     let night = try QuietHours(from: "22:00", to: "07:00", timeZone: "Europe/Berlin")
///     night.contains(Timestamp(rfc3339: "2026-07-01T21:30:00Z")!)   // true: 23:30 in Berlin (UTC+2)
///     night.contains(Timestamp(rfc3339: "2026-07-01T05:00:00Z")!)   // false: 07:00 in Berlin
///
/// The rule, in local wall time at the fix's instant: inside when `from <= local < to`, or,
/// for a window that wraps midnight (`from > to`), when `local >= from` or `local < to`;
/// seconds count (06:59:59 is inside a window to 07:00, 07:00:00 is not). Daylight saving
/// moves the window with the clock: on a spring-forward day the skipped hour has no instant
/// (a window of 02:00–03:00 in Berlin holds none on 29 March 2026, and 22:00–02:30 ends at
/// 03:00 local, when the clock jumps past it), and on a fall-back day a repeated local time is
/// inside on both of its occurrences. `from == to` is refused: it is either empty or the whole
/// day, and a whole day is what `prefersNotifications: false` says.
public struct QuietHours: Sendable, Hashable, CustomStringConvertible {
    /// Minutes after local midnight, 0..<1440.
    public let from: Int
    public let to: Int
    /// The IANA name of the zone, as given (`Europe/Berlin`).
    public let zone: String
    package let rules: ZoneRules

    /// Reads the window from `HH:MM` texts and the zone from the system's database
    /// (/usr/share/zoneinfo).
    public init(from: String, to: String, timeZone: String) throws(QuietHoursError) {
        var zones = TimeZoneDatabase()
        try self.init(from: from, to: to, timeZone: timeZone, zones: &zones)
    }

    /// As `init(from:to:timeZone:)`, with the zones read through `zones` (each read once).
    package init(from: String, to: String, timeZone: String, zones: inout TimeZoneDatabase) throws(QuietHoursError) {
        guard let start = QuietHours.minutes(from) else { throw QuietHoursError(field: "from", reason: Self.notClock(from)) }
        guard let end = QuietHours.minutes(to) else { throw QuietHoursError(field: "to", reason: Self.notClock(to)) }
        guard start != end else {
            throw QuietHoursError(
                field: "to",
                reason: "\(JSONWriter.quoted(to)) equals from: an empty window (for no notifications at all, "
                    + "use \"prefersNotifications\": false)")
        }
        let rules: ZoneRules
        do {
            rules = try zones.rules(named: timeZone)
        } catch {
            throw QuietHoursError(field: "timeZone", reason: error.description)
        }
        self.init(from: start, to: end, zone: timeZone, rules: rules)
    }

    package init(from: Int, to: Int, zone: String, rules: ZoneRules) {
        self.from = from
        self.to = to
        self.zone = zone
        self.rules = rules
    }

    /// Whether the window holds `time` (see the rule above).
    public func contains(_ time: Timestamp) -> Bool { contains(utcSeconds: time.seconds) }

    public func contains(utcSeconds seconds: Int64) -> Bool {
        let minute = localMinuteOfDay(utcSeconds: seconds)
        return from < to ? from <= minute && minute < to : minute >= from || minute < to
    }

    /// The local wall-clock minute of the day (0..<1440) at `seconds` since the epoch.
    public func localMinuteOfDay(utcSeconds seconds: Int64) -> Int {
        let local = seconds + Int64(rules.offset(at: seconds))
        return Int(((local % 86_400) + 86_400) % 86_400 / 60)
    }

    /// `22:00–07:00 Europe/Berlin`.
    public var description: String { "\(Self.clock(from))–\(Self.clock(to)) \(zone)" }

    /// `HH:MM` of a minute of the day.
    public static func clock(_ minutes: Int) -> String {
        let hours = minutes / 60
        let rest = minutes % 60
        return (hours < 10 ? "0" : "") + String(hours) + ":" + (rest < 10 ? "0" : "") + String(rest)
    }

    /// Exactly `HH:MM`, 00:00 through 23:59.
    static func minutes(_ text: String) -> Int? {
        let bytes = Array(text.utf8)
        guard bytes.count == 5, bytes[2] == UInt8(ascii: ":") else { return nil }
        let digits = [bytes[0], bytes[1], bytes[3], bytes[4]].map { Int($0) - Int(UInt8(ascii: "0")) }
        guard digits.allSatisfy({ (0...9).contains($0) }) else { return nil }
        let hours = digits[0] * 10 + digits[1]
        let minutes = digits[2] * 10 + digits[3]
        guard hours < 24, minutes < 60 else { return nil }
        return hours * 60 + minutes
    }

    private static func notClock(_ text: String) -> String {
        "\(TerminalText.quoted(text)) is not HH:MM (00:00 through 23:59, e.g. \"22:00\")"
    }
}

/// A `quietHours` that cannot be used: which field (`from`, `to`, `timeZone`) and why.
public struct QuietHoursError: LandmarkNearError, Sendable, Equatable {
    public var field: String
    public var reason: String
    public var kind: ErrorKind { .badData }
    /// `quietHours.from "25:00" is not HH:MM ...`
    public var description: String { field.isEmpty ? "quietHours \(reason)" : "quietHours.\(field) \(reason)" }

    package init(field: String, reason: String) {
        self.field = field
        self.reason = reason
    }
}
