/// One time zone's offsets from UTC, read from a TZif file of version 2 or later (RFC 8536):
/// its transitions with the offset each brings, and its footer's rule for the times after the
/// last one. Version 1 data (32-bit times) is skipped; so are abbreviations and the
/// standard/UT indicators, which say nothing about the offset.
///
///     let berlin = try ZoneRules(tzif: InputFile.read(path: "/usr/share/zoneinfo/Europe/Berlin"))
///     berlin.offset(at: 1_792_889_999)   // 7200: 2026-10-25T00:59:59Z, the last second of summer time
///
/// Why not Foundation's `TimeZone`: on Linux it answers from the ICU data compiled into the
/// toolchain's `_FoundationICU` (measured: it never opens /usr/share/zoneinfo), so a release
/// binary would keep its build's rules when Debian's `tzdata` updates a country's (as it does
/// several times a year), and it takes names the database lacks (`GMT+1`, `UTC+01:00`). The
/// specification names the system's database, and a TZif file is small enough to read whole.
///
/// A class, immutable: one zone's rules are shared by every profile that names it, and a
/// `QuietHours` holds a reference (8 bytes) rather than the footer's rule inline (about 90):
/// profiles are copied into the engine's tables, and with the rules inline a 10k-device profiles
/// file took a third longer to load, quiet hours or not (measured: 51 ms of CPU against 38; see
/// Benchmarks/LOG.md, "Quiet hours").
package final class ZoneRules: Sendable, Hashable {
    /// Transition instants (seconds since the epoch, UTC), strictly ascending.
    package let transitions: [Int64]
    /// The offset (seconds east) from each transition on.
    package let offsets: [Int32]
    /// The offset before the first transition (time type 0, RFC 8536 §3.2).
    package let initialOffset: Int32
    /// The rule after the last transition (or for all times when there is none).
    package let footer: PosixTimeZoneRule?

    package init(transitions: [Int64], offsets: [Int32], initialOffset: Int32, footer: PosixTimeZoneRule?) {
        self.transitions = transitions
        self.offsets = offsets
        self.initialOffset = initialOffset
        self.footer = footer
    }

    /// Reads a TZif file; the error says what is wrong with it, as a phrase ("is not a TZif file").
    package convenience init(tzif bytes: [UInt8]) throws(ZoneFileProblem) {
        var reader = BigEndianReader(bytes)
        guard let first = reader.header() else { throw ZoneFileProblem("is not a TZif file") }
        guard first.version >= UInt8(ascii: "2") else {
            throw ZoneFileProblem("is a version 1 TZif file (32-bit times only); version 2 or later is needed")
        }
        // Version 1 data: 4-byte times and leap-second records of 8 bytes.
        guard reader.skip(first.counts.dataLength(timeSize: 4)), let second = reader.header() else {
            throw ZoneFileProblem("is a truncated TZif file")
        }
        let counts = second.counts
        guard counts.leapSeconds == 0 else {
            // A `right/` zone: its times count leap seconds, fixes' times do not.
            throw ZoneFileProblem("counts leap seconds (a right/ zone); fix times do not")
        }
        guard counts.types >= 1, reader.remaining >= counts.dataLength(timeSize: 8) else {
            throw ZoneFileProblem("is a truncated TZif file")
        }
        var transitions: [Int64] = []
        transitions.reserveCapacity(counts.transitions)
        for _ in 0..<counts.transitions { transitions.append(Int64(bitPattern: reader.uint64())) }
        let typeIndices = (0..<counts.transitions).map { _ in Int(reader.byte()) }
        var typeOffsets: [Int32] = []
        for _ in 0..<counts.types {
            let offset = Int32(bitPattern: reader.uint32())
            _ = reader.skip(2)  // is-DST flag, abbreviation index
            // RFC 8536 §3.2: -89999 ... 93599 (within ±26 h).
            guard (-89_999...93_599).contains(offset) else { throw ZoneFileProblem("has an offset of \(offset) s, beyond ±26 hours") }
            typeOffsets.append(offset)
        }
        _ = reader.skip(counts.characters + counts.standardIndicators + counts.universalIndicators)
        for index in transitions.indices.dropFirst() where transitions[index] <= transitions[index - 1] {
            throw ZoneFileProblem("has transitions out of order")
        }
        guard typeIndices.allSatisfy({ $0 < counts.types }) else { throw ZoneFileProblem("names a local time type it lacks") }
        // The footer: a TZ string between two newlines (empty: none).
        var footer: PosixTimeZoneRule?
        guard let text = reader.footer() else { throw ZoneFileProblem("has no footer line") }
        if !text.isEmpty {
            guard let rule = PosixTimeZoneRule(text) else {
                throw ZoneFileProblem("has a footer that is not a TZ string: \(String(decoding: text, as: UTF8.self))")
            }
            footer = rule
        }
        self.init(
            transitions: transitions, offsets: typeIndices.map { typeOffsets[$0] }, initialOffset: typeOffsets[0], footer: footer)
    }

    /// Equal rules, whether read once or twice.
    package static func == (lhs: ZoneRules, rhs: ZoneRules) -> Bool {
        lhs === rhs
            || (lhs.transitions == rhs.transitions && lhs.offsets == rhs.offsets && lhs.initialOffset == rhs.initialOffset
                && lhs.footer == rhs.footer)
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(transitions.count)
        hasher.combine(transitions.last)
        hasher.combine(initialOffset)
        hasher.combine(footer)
    }

    /// The offset from UTC (seconds east) at `seconds` since the epoch: a binary search of
    /// the transitions (at most log2 of their count, about 8 steps for Europe/Berlin's 144),
    /// or the footer's rule past the last.
    package func offset(at seconds: Int64) -> Int32 {
        guard let last = transitions.last else { return footer?.offset(at: seconds) ?? initialOffset }
        if seconds >= last, let footer { return footer.offset(at: seconds) }
        // The number of transitions at or before `seconds`.
        var low = 0
        var high = transitions.count
        while low < high {
            let middle = (low + high) / 2
            if transitions[middle] <= seconds { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? initialOffset : offsets[low - 1]
    }
}

/// What is wrong with a TZif file, as a phrase that follows its name.
package struct ZoneFileProblem: Error, Sendable, Equatable {
    package var phrase: String
    package init(_ phrase: String) { self.phrase = phrase }
}

/// The header's counts (RFC 8536 §3.1).
private struct TZifCounts {
    var universalIndicators: Int, standardIndicators: Int, leapSeconds: Int
    var transitions: Int, types: Int, characters: Int

    /// The length of the data block after the header, for times of `timeSize` bytes.
    func dataLength(timeSize: Int) -> Int {
        transitions * (timeSize + 1) + types * 6 + characters + leapSeconds * (timeSize + 4) + standardIndicators
            + universalIndicators
    }
}

/// A cursor over a TZif file's bytes; every read is checked against its end.
private struct BigEndianReader {
    let bytes: [UInt8]
    var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var remaining: Int { bytes.count - position }

    mutating func skip(_ count: Int) -> Bool {
        guard count >= 0, count <= remaining else { return false }
        position += count
        return true
    }

    mutating func byte() -> UInt8 {
        defer { position += 1 }
        return bytes[position]
    }

    mutating func uint32() -> UInt32 { (0..<4).reduce(0) { value, _ in value << 8 | UInt32(byte()) } }

    mutating func uint64() -> UInt64 { (0..<8).reduce(0) { value, _ in value << 8 | UInt64(byte()) } }

    /// "TZif", the version byte, 15 unused bytes, six counts; nil when it is not there.
    mutating func header() -> (version: UInt8, counts: TZifCounts)? {
        guard remaining >= 44, bytes[position..<position + 4].elementsEqual("TZif".utf8) else { return nil }
        let version = bytes[position + 4]
        position += 20
        let values = (0..<6).map { _ in Int(uint32()) }
        return (
            version,
            TZifCounts(
                universalIndicators: values[0], standardIndicators: values[1], leapSeconds: values[2], transitions: values[3],
                types: values[4], characters: values[5])
        )
    }

    /// The footer's text: after a newline, up to the next.
    mutating func footer() -> [UInt8]? {
        guard remaining >= 2, bytes[position] == UInt8(ascii: "\n") else { return nil }
        guard let end = bytes[(position + 1)...].firstIndex(of: UInt8(ascii: "\n")) else { return nil }
        defer { position = end + 1 }
        return Array(bytes[(position + 1)..<end])
    }
}
