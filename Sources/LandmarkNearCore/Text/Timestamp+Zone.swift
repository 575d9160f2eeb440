extension Timestamp {
    /// Whether `bytes`, a date-time `init?(rfc3339UTF8:)` accepted, carry no zone: neither `Z`
    /// nor an offset (`2026-05-01 12:00:02`, `2026-05-01T12:00:02.5`). Such a time is read as
    /// UTC, and the readers say so once a run (docs/reference/fixes.md#times), since a phone's
    /// export in local time would otherwise be hours off without a word.
    ///
    ///     Timestamp.lacksZone(rfc3339UTF8: "2026-05-01T12:00:02")   // true
    ///     Timestamp.lacksZone(rfc3339UTF8: "2026-05-01T12:00:02Z")  // false
    ///     Timestamp.lacksZone(rfc3339UTF8: "1777636802")            // false: epoch seconds
    ///
    /// Only the layout is looked at (the parser checked the rest), and the usual `Z` answers at the
    /// last byte, so asking for every time costs nothing measurable.
    @inline(__always)
    package static func lacksZone(rfc3339UTF8 bytes: some BidirectionalCollection<UInt8>) -> Bool {
        guard let last = bytes.last, last != UInt8(ascii: "Z"), last != UInt8(ascii: "z"), bytes.count >= 19 else { return false }
        // The date-time layout (an epoch number has neither), then no sign after the seconds.
        let start = bytes.startIndex
        guard bytes[bytes.index(start, offsetBy: 4)] == UInt8(ascii: "-"), bytes[bytes.index(start, offsetBy: 13)] == UInt8(ascii: ":")
        else { return false }
        return !bytes.dropFirst(19).contains { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") }
    }
}
