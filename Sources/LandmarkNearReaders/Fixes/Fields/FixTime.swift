@_spi(Inlining) import LandmarkNearCore

/// Reads a fix time written as an RFC 3339 string, as epoch seconds, or as epoch
/// milliseconds (a number above 1e11; docs/reference/fixes.md), as a JSON number or a numeric string.
///
///     FixTime.timestamp(epoch: 1_777_636_802_500)   // 2026-05-01T12:00:02.5Z
enum FixTime {
    /// Numbers above this are epoch milliseconds (1e11 s is in the year 5138).
    static let millisecondsThreshold = 1e11

    static func parse(_ field: FieldValue) -> Timestamp? {
        switch field {
        case .number(let value):
            return timestamp(epoch: value)
        case .text(let bytes):
            if let time = Timestamp(rfc3339UTF8: bytes) { return time }
            guard let value = DecimalNumber.parse(bytes) else { return nil }
            return timestamp(epoch: value)
        default:
            return nil
        }
    }

    /// Epoch seconds, or epoch milliseconds when above `millisecondsThreshold`.
    static func timestamp(epoch value: Double) -> Timestamp? {
        guard value.isFinite else { return nil }
        if abs(value) > millisecondsThreshold {
            let milliseconds = value.rounded(.down)
            if milliseconds == value, abs(milliseconds) < 9e15 {
                let whole = Int64(milliseconds)
                let seconds = whole >= 0 ? whole / 1000 : (whole - 999) / 1000
                return Timestamp(seconds: seconds, nanoseconds: Int32((whole - seconds * 1000) * 1_000_000))
            }
            return Timestamp(epochSeconds: value / 1000)
        }
        return Timestamp(epochSeconds: value)
    }

    /// A date cell (`2013/04/30`, `2013-04-30`) and a time-of-day cell (`14:23:57`,
    /// `14:23:57.250`), in UTC, as GPSBabel's unicsv writes them. A time cell that is already a
    /// full date-time or epoch number is used as it is; an empty time is midnight.
    static func combine(date: UnsafeBufferPointer<UInt8>, time: FieldValue) -> Timestamp? {
        if case .text(let bytes) = time, bytes.count > 8, let full = parse(time) { return full }
        if case .number = time { return parse(time) }
        guard date.count == 10, date[4] == date[7], date[4] == UInt8(ascii: "/") || date[4] == UInt8(ascii: "-") else { return nil }
        var text = Array(date)
        text[4] = UInt8(ascii: "-")
        text[7] = UInt8(ascii: "-")
        text.append(UInt8(ascii: "T"))
        switch time {
        case .text(let bytes) where !bytes.isEmpty:
            // `h:mm:ss` is padded to `hh:mm:ss`.
            if bytes.count >= 7, bytes[1] == UInt8(ascii: ":") { text.append(UInt8(ascii: "0")) }
            text.append(contentsOf: bytes)
        case .absent, .null, .text:
            text.append(contentsOf: Array("00:00:00".utf8))
        default:
            return nil
        }
        text.append(UInt8(ascii: "Z"))
        return text.withUnsafeBufferPointer { Timestamp(rfc3339UTF8: $0) }
    }
}
