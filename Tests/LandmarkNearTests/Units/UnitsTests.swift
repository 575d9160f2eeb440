import Testing

@_spi(Inlining) @testable import LandmarkNearCore

@Suite(.suiteTimeLimit) struct LengthTests {
    @Test(arguments: [
        ("5mi", 8046.72, "5"), ("5.0mi", 8046.72, "5"), ("2.5mi", 4023.36, "2.5"), ("8km", 8000, "8"),
        ("500m", 500, "500"), ("1000ft", 304.8, "1000"), ("0.25mi", 402.336, "0.25"), (" 3 km ", 3000, "3"),
        // Unit words and case (issue 16): what people type.
        ("5 miles", 8046.72, "5"), ("5MI", 8046.72, "5"), ("1 mile", 1609.344, "1"), ("2.5 Kilometres", 2500, "2.5"),
        ("2 kilometers", 2000, "2"), ("500 metres", 500, "500"), ("500meter", 500, "500"), ("1 foot", 0.3048, "1"),
        ("10 feet", 3.048, "10"), ("8 KM", 8000, "8"),
    ])
    func parses(text: String, meters: Double, written: String) throws {
        let length = try Length(parsing: text)
        #expect(abs(length.meters - meters) < 1e-9)
        #expect(length.writtenValue == written)
    }

    @Test(arguments: ["5", "mi", "-5mi", "nanmi", "infkm", "5e3m", "", "1,5km", "5 furlongs", "5 mi les", "5..mi", ".mi", "5 mí"])
    func rejects(text: String) {
        #expect(throws: UnitParseError.self) { _ = try Length(parsing: text) }
    }
}

@Suite(.suiteTimeLimit) struct TimeSpanTests {
    @Test(arguments: [
        ("90s", 90.0), ("30m", 1800), ("1h", 3600), ("2d", 172_800), ("0", 0), ("1.5h", 5400),
        ("90 seconds", 90), ("30 min", 1800), ("1H", 3600), ("2 hours", 7200), ("1 day", 86400), ("0s", 0),
    ])
    func parses(text: String, seconds: Double) throws {
        #expect(try TimeSpan(parsing: text).seconds == seconds)
    }

    @Test(arguments: ["1", "h", "-1h", "1w", "abc", "1 fortnight", ""])
    func rejects(text: String) {
        #expect(throws: UnitParseError.self) { _ = try TimeSpan(parsing: text) }
    }
}

@Suite(.suiteTimeLimit) struct TimestampTests {
    @Test(arguments: [
        ("2026-05-01T12:00:02Z", "2026-05-01T12:00:02Z"),
        ("2026-05-01T12:00:02.500Z", "2026-05-01T12:00:02.5Z"),
        ("2026-05-01T14:00:02+02:00", "2026-05-01T12:00:02Z"),
        ("2026-05-01T07:30:02-0430", "2026-05-01T12:00:02Z"),
        ("2026-05-01 12:00:02z", "2026-05-01T12:00:02Z"),
        ("1969-12-31T23:59:59.25Z", "1969-12-31T23:59:59.25Z"),
        ("2024-02-29T00:00:00Z", "2024-02-29T00:00:00Z"),
    ])
    func parsesAndPrintsUTC(text: String, expected: String) throws {
        let time = try #require(Timestamp(rfc3339: text))
        #expect(time.rfc3339 == expected)
    }

    @Test(arguments: ["2026-13-01T00:00:00Z", "2026-05-01", "2026-05-01T12:00Z", "yesterday", "2026-05-01T12:00:02+2"])
    func rejects(text: String) {
        #expect(Timestamp(rfc3339: text) == nil)
    }

    @Test func epochSeconds() throws {
        #expect(try #require(Timestamp(epochSeconds: 1_777_636_802)).rfc3339 == "2026-05-01T12:00:02Z")
        #expect(try #require(Timestamp(epochSeconds: 1_777_636_802.25)).rfc3339 == "2026-05-01T12:00:02.25Z")
        #expect(Timestamp(epochSeconds: .nan) == nil)
    }
}
