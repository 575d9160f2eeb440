import Testing

@_spi(Inlining) @testable import LandmarkNearCore

@Suite(.suiteTimeLimit) struct CSVReaderTests {
    @Test func gpsLoggerExport() throws {
        let result = try FixReading.read(path: FixReading.fixture("gpslogger.csv"))
        #expect(result.format == .csv)
        #expect(result.issues.isEmpty)
        #expect(result.lines == [2, 3, 4])
        #expect(
            result.fixes == [
                Fix(
                    coordinate: Coordinate(latitude: 34.0189, longitude: -116.1742),
                    time: FixReading.time("2026-05-01T12:00:00Z"), accuracy: 12),
                // The annotation is quoted and holds commas and quotes.
                Fix(
                    coordinate: Coordinate(latitude: 34.0185, longitude: -116.174),
                    time: FixReading.time("2026-05-01T12:00:05Z"), accuracy: 8),
                // Accuracy 0 is unknown.
                Fix(
                    coordinate: Coordinate(latitude: 34.0181, longitude: -116.1738),
                    time: FixReading.time("2026-05-01T12:00:10.25Z")),
            ])
    }

    @Test func genericColumnsAnyCaseAnyOrder() throws {
        let text = """
            \u{FEFF}Device, Latitude ,LONGITUDE,Time,Accuracy
            d1,34.0,-116.0,2026-05-01T12:00:00+02:00,5
            "d, 2",34.5,-116.5,1777636802000,
            ,1,2,,
            """
        let result = try FixReading.read(text)
        #expect(result.format == .csv)
        #expect(result.issues.isEmpty)
        #expect(
            result.fixes == [
                Fix(
                    device: "d1", coordinate: Coordinate(latitude: 34, longitude: -116),
                    time: FixReading.time("2026-05-01T10:00:00Z"), accuracy: 5),
                Fix(
                    device: "d, 2", coordinate: Coordinate(latitude: 34.5, longitude: -116.5),
                    time: Timestamp(seconds: 1_777_636_802)),
                Fix(coordinate: Coordinate(latitude: 1, longitude: 2)),
            ])
    }

    @Test func timestampMillisecondsServeWhenThereIsNoTimeColumn() throws {
        let result = try FixReading.read("lat,lon,timestamp_ms\n1,2,1777636802250\n")
        #expect(result.fixes.first?.time == Timestamp(seconds: 1_777_636_802, nanoseconds: 250_000_000))
    }

    @Test(arguments: [
        ("1,2,x", "time \"x\" is neither an RFC 3339 date-time nor epoch seconds"),
        ("abc,2,", "latitude \"abc\" is not a number"),
        (",2,", "missing latitude (lat, latitude)"),
        ("95,2,", "latitude 95.0 is outside [-90, 90]"),
        ("nan,2,", "latitude is not a finite number"),
        ("1", "the row has 1 fields; the header names 3"),
        ("\"1\",\"x2\",", "longitude \"x2\" is not a number"),
    ])
    func badRowIsReportedAndTheStreamGoesOn(_ bad: (row: String, reason: String)) throws {
        let result = try FixReading.read(["lat,lon,time", "1,2,", bad.row, "3,4,"].joined(separator: "\n"))
        #expect(result.issues == ["<source>:3: \(bad.reason)"])
        #expect(result.lines == [2, 4])
    }

    @Test func repeatedHeaderOfConcatenatedExportsIsSkipped() throws {
        let result = try FixReading.read("lat,lon\n1,2\nlat,lon\n3,4\n")
        #expect(result.issues.isEmpty)
        #expect(result.lines == [2, 4])
    }

    /// An unusable header is one issue that says so, and the rest is not read (a line per
    /// row buried the reason under thousands of copies of it).
    @Test func headerWithoutCoordinatesIsOneIssue() throws {
        let result = try FixReading.read("name,city\nTurtle Rock,Twentynine Palms\nx,y\n")
        #expect(
            result.issues == ["<source>:1: the CSV header names no latitude column (lat, latitude); the rest of the input is not read"])
        #expect(result.fixes.isEmpty)
    }

    /// A CSV without its header, or with semicolons: the advice says which, and what to do.
    @Test(arguments: [
        ("34.01,-116.16,2026-05-01T12:00:00Z\n34.02,-116.16,2026-05-01T12:01:00Z\n", "the first line looks like data, not a header"),
        ("lat;lon\n34,01;-116,16\n", "the columns are separated by ';'"),
    ])
    func aHeaderThatIsNotOneSaysWhatItIs(_ text: String, _ advice: String) throws {
        let result = try FixReading.read(text, format: .csv)
        #expect(result.issues.count == 1)
        #expect(result.issues.first?.contains(advice) == true, "\(result.issues)")
    }
}
