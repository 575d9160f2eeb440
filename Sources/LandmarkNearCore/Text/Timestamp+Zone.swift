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
    /// last byte. Concrete on purpose: the CSV and NDJSON readers ask for every fix, and a generic
    /// version is not specialized across the module boundary (it cost `watch` a quarter of its
    /// speed through witness calls and allocations; Benchmarks/LOG.md, "times without a zone").
    package static func lacksZone(rfc3339UTF8 bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count >= 19, let last = bytes.last, last != UInt8(ascii: "Z"), last != UInt8(ascii: "z") else { return false }
        // The date-time layout (an epoch number has neither), then no sign after the seconds.
        guard bytes[4] == UInt8(ascii: "-"), bytes[13] == UInt8(ascii: ":") else { return false }
        return !bytes[19...].contains { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") }
    }
}
