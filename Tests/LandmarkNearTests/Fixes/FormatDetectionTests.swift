import Foundation
import Testing
@testable import LandmarkNear

@Suite(.suiteTimeLimit) struct FormatDetectionTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var text: String
        var expected: FixFormat
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "NDJSON", text: "{\"lat\":1,\"lon\":2}\n", expected: .ndjson),
        Case(name: "CSV", text: "lat,lon\n1,2\n", expected: .csv),
        Case(name: "GPX", text: "<?xml version=\"1.0\"?>\n<gpx>\n", expected: .gpx),
        Case(name: "NMEA", text: "$GPRMC,120001.00,A,4807.0380,N,01131.0000,E,0.5,54.7,010526,,,A\n", expected: .nmea),
        Case(name: "AIS bang sentence", text: "!AIVDM,1,1,,B,15M67FC000G,0*5C\n", expected: .nmea),
        Case(name: "BOM then NDJSON", text: "\u{FEFF}{\"lat\":1,\"lon\":2}\n", expected: .ndjson),
        Case(name: "BOM then GPX", text: "\u{FEFF}<?xml version=\"1.0\"?><gpx/>", expected: .gpx),
        Case(name: "gpsd log comments then NMEA", text: "# gpsd test log\n# more\n$GPGGA,1\n", expected: .nmea),
        Case(name: "blank lines and comments then CSV", text: "\n\n  \r\n# c\ntime,lat,lon\n", expected: .csv),
        Case(name: "gpspipe -r headers then NMEA",
             text: "{\"class\":\"VERSION\"}\n{\"class\":\"DEVICES\"}\n{\"class\":\"WATCH\"}\n$GNRMC,1\n", expected: .nmea),
        Case(name: "CRLF NDJSON", text: "{\"lat\":1,\"lon\":2}\r\n{\"lat\":1,\"lon\":2}\r\n", expected: .ndjson),
        Case(name: "NMEA after 20 JSON lines is not looked at",
             text: String(repeating: "{\"a\":1}\n", count: 20) + "$GPRMC,1\n", expected: .ndjson),
        Case(name: "NMEA on the 20th line", text: String(repeating: "{\"a\":1}\n", count: 19) + "$GPRMC,1\n", expected: .nmea),
        Case(name: "empty input", text: "", expected: .ndjson),
        Case(name: "only comments", text: "# nothing\n\n", expected: .ndjson),
        Case(name: "no final newline", text: "lat,lon", expected: .csv),
    ]

    @Test(arguments: cases)
    func detectsFromCompleteInput(_ example: Case) throws {
        #expect(FormatDetector.detect(Array(example.text.utf8)[...], isComplete: true) == example.expected)
        #expect(try FixReading.read(example.text).format == example.expected)
    }

    @Test func decisiveLinesDecideBeforeTheInputEnds() {
        #expect(FormatDetector.detect(Array("# log\n$GPGGA,1".utf8)[...], isComplete: false) == .nmea)
        #expect(FormatDetector.detect(Array("<?xml".utf8)[...], isComplete: false) == .gpx)
    }

    @Test func jsonAndCSVWaitForMoreLines() {
        // gpspipe -r prints JSON header lines before the first sentence: keep looking.
        #expect(FormatDetector.detect(Array("{\"class\":\"VERSION\"}\n".utf8)[...], isComplete: false) == nil)
        #expect(FormatDetector.detect(Array("lat,lon\n1,2\n".utf8)[...], isComplete: false) == nil)
        #expect(FormatDetector.detect(Array("\u{FEFF}".utf8)[...], isComplete: false) == nil)
        #expect(FormatDetector.detect(Array(String(repeating: "{}\n", count: 20).utf8)[...], isComplete: false) == .ndjson)
    }

    /// `gpspipe -w` is live from its WATCH line on; `gpspipe -r` (NMEA on) still waits for its
    /// first sentence.
    @Test func gpsdWatchLineDecidesJSONOnlyStreams() throws {
        let watch = try String(contentsOfFile: FixReading.fixture("gpsd/gpspipe-w.ndjson"), encoding: .utf8)
            .split(whereSeparator: \.isNewline).prefix(3).joined(separator: "\n") + "\n"
        #expect(FormatDetector.detect(Array(watch.utf8)[...], isComplete: false) == .ndjson)
        let raw = try String(contentsOfFile: FixReading.fixture("gpsd/gpspipe-r.nmea"), encoding: .utf8)
            .split(whereSeparator: \.isNewline).prefix(3).joined(separator: "\n") + "\n"
        #expect(FormatDetector.detect(Array(raw.utf8)[...], isComplete: false) == nil)
        let both = #"{"class":"WATCH","enable":true,"json":true,"nmea":true,"raw":0}"# + "\n"
        #expect(FormatDetector.detect(Array(both.utf8)[...], isComplete: false) == nil)
    }

    @Test func forcedFormatWins() throws {
        let result = try FixReading.read("{\"lat\":1,\"lon\":2}\n", format: .csv)
        #expect(result.format == .csv)
        #expect(result.fixes.isEmpty)
        #expect(result.issues == ["<source>:1: the CSV header names no latitude column (lat, latitude)"])
    }
}
