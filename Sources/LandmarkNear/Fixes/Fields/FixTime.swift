/// Reads a fix time written as an RFC 3339 string, as epoch seconds, or as epoch
/// milliseconds (a number above 1e11; SPEC §3), as a JSON number or a numeric string.
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
}
