/// The rule of a TZif file's footer (RFC 8536 §3.3): a POSIX TZ string, with the RFC's
/// extension of a change's time to ±167 hours, giving local time after the file's last
/// transition. `CET-1CEST,M3.5.0,M10.5.0/3` is Europe/Berlin's: UTC+1, and UTC+2 from the last
/// Sunday of March at 02:00 standard time to the last Sunday of October at 03:00 summer time.
///
///     let berlin = PosixTimeZoneRule(Array("CET-1CEST,M3.5.0,M10.5.0/3".utf8))!
///     berlin.offset(at: 1_774_746_000)   // 7200: 2026-03-29T01:00Z, the first second of summer time
///
/// Offsets are seconds east of Greenwich (POSIX writes them west: `-1` is UTC+1).
package struct PosixTimeZoneRule: Sendable, Hashable {
    /// Standard time's offset.
    package var standardOffset: Int32
    /// Daylight saving time, when the zone has it.
    package var daylight: Daylight?

    package struct Daylight: Sendable, Hashable {
        package var offset: Int32
        /// Into daylight saving time, given in standard local time.
        package var start: Change
        /// Back to standard time, given in daylight saving local time.
        package var end: Change
    }

    /// A yearly change: a day of the year and a time of that day (−167 h ... 167 h).
    package struct Change: Sendable, Hashable {
        package enum Day: Sendable, Hashable {
            /// `Jn`: day 1...365, 29 February never counted.
            case julian(Int64)
            /// `n`: day 0...365, 29 February counted.
            case zeroBased(Int64)
            /// `Mm.w.d`: weekday `d` (0 = Sunday) of week `w` (1...5, 5 = the last) of month `m`.
            case weekday(month: Int64, week: Int64, day: Int64)
        }
        package var day: Day
        package var seconds: Int64

        /// The change's instant in `year`, for a local clock `offset` seconds east.
        func instant(year: Int64, offset: Int32) -> Int64 {
            let january = Timestamp.daysSinceEpoch(year: year, month: 1, day: 1)
            let isLeap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
            let days: Int64
            switch day {
            case .julian(let number): days = january + number - 1 + (isLeap && number >= 60 ? 1 : 0)
            case .zeroBased(let number): days = january + number
            case .weekday(let month, let week, let weekday):
                let first = Timestamp.daysSinceEpoch(year: year, month: month, day: 1)
                // 31 and 30 alternate, restarting at August; no array, so no allocation per call.
                let length = month == 2 ? (isLeap ? 29 : 28) : 30 + (month + month / 8) % 2
                // 1970-01-01 was a Thursday (weekday 4).
                let firstWeekday = ((first + 4) % 7 + 7) % 7
                var candidate = first + ((weekday - firstWeekday) % 7 + 7) % 7 + (week - 1) * 7
                while candidate >= first + length { candidate -= 7 }
                days = candidate
            }
            return days * 86_400 + seconds - Int64(offset)
        }
    }

    package init(standardOffset: Int32, daylight: Daylight? = nil) {
        self.standardOffset = standardOffset
        self.daylight = daylight
    }

    /// Parses a TZ string; nil when it is not one (or names daylight saving time without the
    /// rule of its changes, which POSIX leaves to the implementation).
    package init?(_ text: [UInt8]) {
        var scanner = TZStringScanner(text)
        guard scanner.name(), let standard = scanner.offset(hoursUpTo: 24) else { return nil }
        standardOffset = Int32(-standard)
        if scanner.atEnd {
            daylight = nil
            return
        }
        guard scanner.name() else { return nil }
        var offset = standardOffset + 3600
        if !scanner.peek(",") {
            guard let written = scanner.offset(hoursUpTo: 24) else { return nil }
            offset = Int32(-written)
        }
        guard scanner.take(","), let start = scanner.change(), scanner.take(","), let end = scanner.change(), scanner.atEnd else {
            return nil
        }
        daylight = Daylight(offset: offset, start: start, end: end)
    }

    /// The offset at `seconds` since the epoch: that of the latest change at or before it,
    /// among the changes of its year and the years either side (a change may fall up to a
    /// week into a neighbouring UTC year). Where a year's end and the next year's start
    /// coincide (`EST5EDT,0/0,J365/25`: daylight saving time all year) the start wins.
    package func offset(at seconds: Int64) -> Int32 {
        guard let daylight else { return standardOffset }
        let year = Timestamp.civilDate(daysSinceEpoch: seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400).0
        var latest = Int64.min
        var offset = standardOffset
        for candidate in year - 1...year + 1 {
            let start = daylight.start.instant(year: candidate, offset: standardOffset)
            let end = daylight.end.instant(year: candidate, offset: daylight.offset)
            if end <= seconds, end > latest {
                latest = end
                offset = standardOffset
            }
            if start <= seconds, start >= latest {
                latest = start
                offset = daylight.offset
            }
        }
        return offset
    }
}

/// Reads the parts of a TZ string (RFC 8536 §3.3, POSIX.1-2017 §8.3).
private struct TZStringScanner {
    let bytes: [UInt8]
    var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var atEnd: Bool { position == bytes.count }

    func peek(_ character: Unicode.Scalar) -> Bool { position < bytes.count && bytes[position] == UInt8(ascii: character) }

    mutating func take(_ character: Unicode.Scalar) -> Bool {
        guard peek(character) else { return false }
        position += 1
        return true
    }

    /// A zone abbreviation: three or more letters, or `<...>` of letters, digits, `+`, `-`.
    mutating func name() -> Bool {
        let start = position
        if take("<") {
            while position < bytes.count, bytes[position] != UInt8(ascii: ">") {
                let byte = bytes[position]
                guard isLetter(byte) || isDigit(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") else { return false }
                position += 1
            }
            return position - start - 1 >= 3 && take(">")
        }
        while position < bytes.count, isLetter(bytes[position]) { position += 1 }
        return position - start >= 3
    }

    /// `[+-]hh[:mm[:ss]]` in seconds, hours at most `limit`.
    mutating func offset(hoursUpTo limit: Int64) -> Int64? {
        var sign: Int64 = 1
        if take("-") { sign = -1 } else { _ = take("+") }
        guard let hours = number(digits: 3), hours <= limit else { return nil }
        var total = hours * 3600
        if take(":") {
            guard let minutes = number(digits: 2), minutes < 60 else { return nil }
            total += minutes * 60
            if take(":") {
                guard let seconds = number(digits: 2), seconds < 60 else { return nil }
                total += seconds
            }
        }
        return sign * total
    }

    /// A change: its day, and `/time` (default 02:00).
    mutating func change() -> PosixTimeZoneRule.Change? {
        let day: PosixTimeZoneRule.Change.Day
        if take("J") {
            guard let number = number(digits: 3), (1...365).contains(number) else { return nil }
            day = .julian(number)
        } else if take("M") {
            guard let month = number(digits: 2), (1...12).contains(month), take("."),
                let week = number(digits: 1), (1...5).contains(week), take("."),
                let weekday = number(digits: 1), (0...6).contains(weekday)
            else { return nil }
            day = .weekday(month: month, week: week, day: weekday)
        } else {
            guard let number = number(digits: 3), (0...365).contains(number) else { return nil }
            day = .zeroBased(number)
        }
        var seconds: Int64 = 7200
        if take("/") {
            guard let time = offset(hoursUpTo: 167) else { return nil }
            seconds = time
        }
        return PosixTimeZoneRule.Change(day: day, seconds: seconds)
    }

    /// One to `digits` decimal digits.
    mutating func number(digits: Int) -> Int64? {
        let start = position
        var value: Int64 = 0
        while position < bytes.count, position - start < digits, isDigit(bytes[position]) {
            value = value * 10 + Int64(bytes[position] - UInt8(ascii: "0"))
            position += 1
        }
        return position > start ? value : nil
    }

    func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") }
    func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
}
