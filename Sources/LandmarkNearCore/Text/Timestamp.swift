import Foundation

/// A point in time as whole seconds since the Unix epoch plus nanoseconds, so that fix times
/// compare exactly and print back with the fraction they were given (docs/reference/output.md).
///
///     let t = Timestamp(rfc3339: "2026-05-01T12:00:02.5+02:00")
///     t?.rfc3339   // "2026-05-01T10:00:02.5Z"
public struct Timestamp: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var seconds: Int64
    /// 0 ..< 1_000_000_000
    public var nanoseconds: Int32

    public init(seconds: Int64, nanoseconds: Int32 = 0) {
        self.seconds = seconds
        self.nanoseconds = nanoseconds
    }

    /// From epoch seconds with a fraction (e.g. `1777636802.25`), rounded to the microsecond.
    public init?(epochSeconds: Double) {
        guard epochSeconds.isFinite, abs(epochSeconds) < 1e13 else { return nil }
        let micros = (epochSeconds * 1_000_000).rounded()
        let whole = (micros / 1_000_000).rounded(.down)
        self.seconds = Int64(whole)
        self.nanoseconds = Int32((micros - whole * 1_000_000) * 1000)
    }

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        (lhs.seconds, lhs.nanoseconds) < (rhs.seconds, rhs.nanoseconds)
    }

    /// Seconds from `earlier` to `self`.
    package func interval(since earlier: Timestamp) -> Double {
        Double(seconds - earlier.seconds) + Double(nanoseconds - earlier.nanoseconds) / 1e9
    }

    package var hasFraction: Bool { nanoseconds != 0 }

    /// RFC 3339 in UTC: `2026-05-01T12:00:02Z`, with the fraction only when there is one.
    public var rfc3339: String {
        let days = Int64((Double(seconds) / 86400).rounded(.down))
        let secondOfDay = seconds - days * 86400
        let (year, month, day) = Timestamp.civilDate(daysSinceEpoch: days)
        var text = Timestamp.pad(year, 4) + "-" + Timestamp.pad(month, 2) + "-" + Timestamp.pad(day, 2)
        text +=
            "T" + Timestamp.pad(secondOfDay / 3600, 2) + ":" + Timestamp.pad(secondOfDay % 3600 / 60, 2)
            + ":" + Timestamp.pad(secondOfDay % 60, 2)
        if nanoseconds != 0 {
            var fraction = Timestamp.pad(Int64(nanoseconds), 9)
            while fraction.hasSuffix("0") { fraction.removeLast() }
            text += "." + fraction
        }
        return text + "Z"
    }

    public var description: String { rfc3339 }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(abs(value))
        let padded = String(repeating: "0", count: max(0, width - digits.count)) + digits
        return value < 0 ? "-" + padded : padded
    }

    /// Whether the proleptic Gregorian calendar has this date: month 1...12 and a day that the
    /// month has (29 February only in leap years). Every reader of dates asks here, so that
    /// 2026-02-31 is refused rather than read as 3 March.
    @inlinable
    @_spi(Inlining) public static func dateExists(year: Int64, month: Int64, day: Int64) -> Bool {
        guard (1...12).contains(month), day >= 1 else { return false }
        let isLeap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let lengths: [Int64] = [31, isLeap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        return day <= lengths[Int(month - 1)]
    }

    /// Days since 1970-01-01 for a proleptic Gregorian date (Howard Hinnant's algorithm); the
    /// date must exist (`dateExists`).
    @inlinable
    @_spi(Inlining) public static func daysSinceEpoch(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146097 + dayOfEra - 719468
    }

    package static func civilDate(daysSinceEpoch days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719468
        let era = (z >= 0 ? z : z - 146096) / 146097
        let dayOfEra = z - era * 146097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// Parses RFC 3339 / ISO 8601 date-times: `2026-05-01T12:00:02Z`, `...02.123Z`,
    /// `...02+02:00`, `...02+0200`, a space instead of `T`, lower-case `t`/`z`. A time without
    /// a zone is taken as UTC.
    public init?(rfc3339 text: some StringProtocol) {
        var string = String(text)
        guard let parsed = string.withUTF8({ Timestamp(rfc3339UTF8: $0) }) else { return nil }
        self = parsed
    }

    /// The same as `init?(rfc3339:)`, reading UTF-8 bytes in place (no String is built), for
    /// the fix readers' fast paths. The date and time have a fixed layout
    /// (`YYYY-MM-DDTHH:MM:SS`), read by position; the fraction and the zone follow.
    package init?(rfc3339UTF8 bytes: UnsafeBufferPointer<UInt8>) {
        @inline(__always) func twoDigits(_ at: Int) -> Int64? {
            let high = bytes[at] &- 0x30
            let low = bytes[at + 1] &- 0x30
            guard high < 10, low < 10 else { return nil }
            return Int64(high) * 10 + Int64(low)
        }
        guard bytes.count >= 19, let century = twoDigits(0), let yearOfCentury = twoDigits(2),
            bytes[4] == UInt8(ascii: "-"), let month = twoDigits(5), bytes[7] == UInt8(ascii: "-"),
            let day = twoDigits(8),
            bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: "t") || bytes[10] == UInt8(ascii: " "),
            let hour = twoDigits(11), bytes[13] == UInt8(ascii: ":"), let minute = twoDigits(14),
            bytes[16] == UInt8(ascii: ":"), let second = twoDigits(17)
        else { return nil }
        guard Timestamp.dateExists(year: century * 100 + yearOfCentury, month: month, day: day),
            hour < 24, minute < 60, second <= 60
        else { return nil }
        var i = 19
        var nanos: Int64 = 0
        if i < bytes.count && (bytes[i] == UInt8(ascii: ".") || bytes[i] == UInt8(ascii: ",")) {
            i += 1
            var digits = 0
            while i < bytes.count, bytes[i] &- 0x30 < 10 {
                if digits < 9 { nanos = nanos * 10 + Int64(bytes[i] - 0x30) }
                digits += 1
                i += 1
            }
            guard digits > 0 else { return nil }
            for _ in digits..<max(digits, 9) { nanos *= 10 }
        }
        var offset: Int64 = 0
        if i < bytes.count {
            switch bytes[i] {
            case UInt8(ascii: "Z"), UInt8(ascii: "z"):
                i += 1
            case UInt8(ascii: "+"), UInt8(ascii: "-"):
                let sign: Int64 = bytes[i] == UInt8(ascii: "-") ? -1 : 1
                i += 1
                guard i + 2 <= bytes.count, let hours = twoDigits(i) else { return nil }
                i += 2
                if i < bytes.count, bytes[i] == UInt8(ascii: ":") { i += 1 }
                guard i + 2 <= bytes.count, let minutes = twoDigits(i), hours < 24, minutes < 60 else { return nil }
                i += 2
                offset = sign * (hours * 3600 + minutes * 60)
            default:
                return nil
            }
        }
        guard i == bytes.count else { return nil }
        let days = Timestamp.daysSinceEpoch(year: century * 100 + yearOfCentury, month: month, day: day)
        self.seconds = days * 86400 + hour * 3600 + minute * 60 + min(second, 59) - offset
        self.nanoseconds = Int32(nanos)
    }
}
