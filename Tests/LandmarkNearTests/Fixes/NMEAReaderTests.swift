import Testing

@testable import LandmarkNear

@Suite(.suiteTimeLimit) struct NMEAReaderTests {
    @Test func mixedTalkersChecksumsAndNonFixes() throws {
        let path = FixReading.fixture("mixed-talkers.nmea")
        let result = try FixReading.read(path: path)
        #expect(result.format == .nmea)
        #expect(
            result.issues == [
                "\(path):12: GPGGA: checksum mismatch: the sentence says 00, its bytes give 68",
                "\(path):16: GPRMC: latitude 91.11738333333334 is outside [-90, 90]",
            ])
        #expect(result.lines == [2, 4, 5, 7, 9, 13])
        let fixes = result.fixes
        #expect(fixes.allSatisfy { $0.device == "default" && $0.accuracy == nil })
        // GGA before any RMC: no time.
        #expect(fixes[0].time == nil)
        #expect(fixes[1].time == FixReading.time("2026-05-01T12:00:01Z"))
        #expect(fixes[2].time == FixReading.time("2026-05-01T12:00:01.5Z"))
        #expect(fixes[3].time == FixReading.time("2026-05-01T12:00:03Z"))
        #expect(fixes[4].time == FixReading.time("2026-05-01T12:00:04Z"))
        #expect(fixes[5].time == FixReading.time("2026-05-01T12:00:07Z"))
        #expect(abs(fixes[1].coordinate.latitude - (48 + 7.038 / 60)) < 1e-12)
        #expect(abs(fixes[1].coordinate.longitude - (11 + 31.0 / 60)) < 1e-12)
        // BDGNS at S/W.
        #expect(abs(fixes[4].coordinate.latitude + (48 + 7.041 / 60)) < 1e-12)
        #expect(abs(fixes[4].coordinate.longitude + (11 + 31.003 / 60)) < 1e-12)
    }

    @Test func gpsfakeLogCrossesMidnight() throws {
        let result = try FixReading.read(path: FixReading.fixture("gpsd/gpsfake-drive.nmea"))
        #expect(result.format == .nmea)
        #expect(result.issues.isEmpty)
        // 40 epochs of RMC + GGA, 14 GLL, 10 GNS.
        #expect(result.fixes.count == 40 * 2 + 14 + 10)
        let times = result.fixes.compactMap(\.time)
        #expect(times.count == result.fixes.count)
        #expect(times.first == FixReading.time("2026-04-30T23:59:48Z"))
        #expect(times.last == FixReading.time("2026-05-01T00:00:27Z"))
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 <= $1 })
    }

    @Test func gpspipeRawCaptureSkipsItsJSONHeaders() throws {
        let result = try FixReading.read(path: FixReading.fixture("gpsd/gpspipe-r.nmea"))
        #expect(result.format == .nmea)
        #expect(result.issues.isEmpty)
        // Three JSON header lines, then the sentences; the capture starts with an RMC.
        #expect(result.lines.first == 4)
        #expect(result.fixes.first?.time == FixReading.time("2026-04-30T23:59:49Z"))
        #expect(result.fixes.allSatisfy { $0.time != nil })
        // 15 RMC, 14 GGA, 4 GLL, 4 GNS (mode AAN) in the capture.
        #expect(result.fixes.count == 15 + 14 + 4 + 4)
    }

    @Test func ggaAfterMidnightWithoutANewRMCTakesTheNextDay() throws {
        let text = [
            "$GPRMC,235959.00,A,4807.0380,N,01131.0000,E,0.5,54.7,300426,,,A",
            "$GPGGA,000000.00,4807.0380,N,01131.0000,E,1,08,0.9,545.4,M,46.9,M,,",
        ].joined(separator: "\n")
        let result = try FixReading.read(text)
        #expect(result.fixes.map(\.time) == [FixReading.time("2026-04-30T23:59:59Z"), FixReading.time("2026-05-01T00:00:00Z")])
    }

    @Test(arguments: [
        ("$GPRMC,120001.00,A,4807.0380,Q,01131.0000,E,0.5,54.7,010526,,,A", "GPRMC: latitude hemisphere \"Q\" is not N or S"),
        ("$GPRMC,120001.00,A,4807.0380,N,01131.0000,,0.5,54.7,010526,,,A", "GPRMC: longitude hemisphere \"\" is not E or W"),
        ("$GPRMC,120001.00,A,48x7.0380,N,01131.0000,E,0.5,54.7,010526,,,A", "GPRMC: latitude \"48x7.0380\" is not ddmm.mmmm"),
        (
            "$GPRMC,120001.00,A,4867.0380,N,01131.0000,E,0.5,54.7,010526,,,A",
            "GPRMC: latitude \"4867.0380\" is not ddmm.mmmm: 60 minutes or more"
        ),
        ("$GPRMC,120001.00,A,,N,01131.0000,E,0.5,54.7,010526,,,A", "GPRMC: missing latitude"),
        ("$GPRMC,12:00:01,A,4807.0380,N,01131.0000,E,0.5,54.7,010526,,,A", "GPRMC: time \"12:00:01\" is not hhmmss.ss"),
        ("$GPRMC,120001.00,A,4807.0380,N,01131.0000,E,0.5,54.7,320526,,,A", "GPRMC: date \"320526\" is not ddmmyy"),
        ("$GPGGA,120001.00,4807.0380,N,01131.0000,E,1,08,0.9,545.4,M,46.9,M,,*6", "GPGGA: malformed checksum after '*'"),
    ])
    func badSentenceIsReportedAndTheStreamGoesOn(_ bad: (sentence: String, reason: String)) throws {
        let good = "$GNRMC,120001.00,A,4807.0380,N,01131.0000,E,0.5,54.7,010526,,,A*73"
        // gpsd's logs end sentences with CRLF; a stray extra CR is tolerated too.
        let result = try FixReading.read([good + "\r", bad.sentence, good].joined(separator: "\r\n"))
        #expect(result.issues == ["<source>:2: \(bad.reason)"])
        #expect(result.lines == [1, 3])
    }
}
