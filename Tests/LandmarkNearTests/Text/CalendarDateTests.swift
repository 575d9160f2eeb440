import Testing

@_spi(Inlining) @testable import LandmarkNearCore

/// Dates that the calendar does not have make a record unreadable (docs/reference/fixes.md), in every format:
/// `2026-02-31T00:00:00Z` is not 3 March, NMEA's `310226` is not 3 March either.
@Suite(.suiteTimeLimit) struct CalendarDateTests {
    @Test(arguments: [
        (2026, 2, 28, true), (2026, 2, 29, false), (2024, 2, 29, true), (2000, 2, 29, true), (1900, 2, 29, false),
        (2026, 2, 31, false), (2026, 4, 30, true), (2026, 4, 31, false), (2026, 12, 31, true), (2026, 1, 32, false),
        (2026, 0, 1, false), (2026, 13, 1, false), (2026, 6, 0, false),
    ])
    func daysInMonth(_ date: (year: Int64, month: Int64, day: Int64, exists: Bool)) {
        #expect(Timestamp.dateExists(year: date.year, month: date.month, day: date.day) == date.exists)
    }

    @Test(arguments: ["2026-02-31T00:00:00Z", "2026-02-29T12:00:00Z", "2026-04-31T00:00:00Z", "1900-02-29T00:00:00Z"])
    func rfc3339RefusesDatesThatDoNotExist(text: String) {
        #expect(Timestamp(rfc3339: text) == nil)
    }

    @Test func ndjsonRecordWithAnImpossibleDateIsUnreadable() throws {
        let text = #"""
            {"lat":34.0,"lon":-116.0,"time":"2026-02-31T00:00:00Z"}
            {"lat":34.0,"lon":-116.0,"time":"2024-02-29T00:00:00Z"}
            """#
        let result = try FixReading.read(text)
        #expect(result.issues == [#"<source>:1: time "2026-02-31T00:00:00Z" is neither an RFC 3339 date-time nor epoch seconds"#])
        #expect(result.fixes.map(\.time) == [FixReading.time("2024-02-29T00:00:00Z")])
    }

    @Test func nmeaDate310226IsUnreadable() throws {
        let bad = "$GPRMC,120001.00,A,4807.0380,N,01131.0000,E,0.5,54.7,310226,,,A"
        let leapDay = "$GPRMC,120001.00,A,4807.0380,N,01131.0000,E,0.5,54.7,290224,,,A"
        let result = try FixReading.read([bad, leapDay].joined(separator: "\n"))
        #expect(result.issues == [#"<source>:1: GPRMC: date "310226" is not ddmmyy"#])
        #expect(result.fixes.map(\.time) == [FixReading.time("2024-02-29T12:00:01Z")])
    }
}
