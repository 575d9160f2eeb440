import Foundation
import Testing

@testable import LandmarkNearReaders

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
        Case(name: "KML", text: "<?xml version=\"1.0\"?>\n<kml xmlns=\"http://www.opengis.net/kml/2.2\"/>\n", expected: .kml),
        Case(name: "TCX", text: "<TrainingCenterDatabase/>", expected: .tcx),
        Case(name: "NMEA", text: "$GPRMC,120001.00,A,4807.0380,N,01131.0000,E,0.5,54.7,010526,,,A\n", expected: .nmea),
        Case(name: "AIS bang sentence", text: "!AIVDM,1,1,,B,15M67FC000G,0*5C\n", expected: .nmea),
        Case(name: "BOM then NDJSON", text: "\u{FEFF}{\"lat\":1,\"lon\":2}\n", expected: .ndjson),
        Case(name: "BOM then GPX", text: "\u{FEFF}<?xml version=\"1.0\"?><gpx/>", expected: .gpx),
        Case(name: "gpsd log comments then NMEA", text: "# gpsd test log\n# more\n$GPGGA,1\n", expected: .nmea),
        Case(name: "blank lines and comments then CSV", text: "\n\n  \r\n# c\ntime,lat,lon\n", expected: .csv),
        Case(
            name: "gpspipe -r headers then NMEA",
            text: "{\"class\":\"VERSION\"}\n{\"class\":\"DEVICES\"}\n{\"class\":\"WATCH\"}\n$GNRMC,1\n", expected: .nmea),
        Case(
            name: "gpspipe -w headers then TPV",
            text: "{\"class\":\"VERSION\"}\n{\"class\":\"WATCH\"}\n{\"class\":\"TPV\",\"mode\":1}\n", expected: .ndjson),
        Case(name: "CRLF NDJSON", text: "{\"lat\":1,\"lon\":2}\r\n{\"lat\":1,\"lon\":2}\r\n", expected: .ndjson),
        Case(
            name: "the first deciding line wins over later NMEA",
            text: "{\"a\":1}\n$GPRMC,1\n", expected: .ndjson),
        Case(name: "pretty-printed GeoJSON", text: "{\n  \"type\": \"FeatureCollection\",\n  \"features\": []\n}\n", expected: .geojson),
        Case(name: "one-line GeoJSON", text: "{\"type\":\"Feature\",\"geometry\":null,\"properties\":{}}\n", expected: .geojson),
        Case(
            name: "NDJSON whose first key is type but not a GeoJSON type",
            text: "{\"type\":\"location\",\"lat\":1,\"lon\":2}\n", expected: .ndjson),
        Case(
            name: "OwnTracks recorder line",
            text: "2015-08-24T05:55:07Z\t*                 \t{\"_type\":\"location\",\"lat\":1,\"lon\":2}\n", expected: .ndjson),
        Case(name: "CSV whose header starts with a digit", text: "1st,lat,lon\n", expected: .csv),
        Case(name: "empty input", text: "", expected: .ndjson),
        Case(name: "only comments", text: "# nothing\n\n", expected: .ndjson),
        Case(name: "only gpsd headers", text: "{\"class\":\"VERSION\"}\n", expected: .ndjson),
        Case(name: "no final newline", text: "lat,lon", expected: .csv),
    ]

    @Test(arguments: cases)
    func detectsFromCompleteInput(_ example: Case) throws {
        #expect(try FixReading.read(example.text).format == example.expected)
    }

    static func decision(_ text: String, complete: Bool = false) -> FormatDetector.Decision? {
        FormatDetector.detect(Array(text.utf8)[...], isComplete: complete)
    }

    /// The first line that settles it decides, before the line after it has arrived.
    @Test func theFirstDecidingLineDecidesAtOnce() {
        #expect(Self.decision("# log\n$GPGGA,1") == .nmea)
        #expect(Self.decision("<?xml") == .xml)
        #expect(Self.decision("lat,lon\n") == .csv)
        #expect(Self.decision("time,lat,lon") == .csv)
        #expect(Self.decision("{\"device\":\"d1\",\"lat\":1,\"lon\":2}\n") == .ndjson)
        #expect(Self.decision("{\"device\":") == .ndjson)
        #expect(Self.decision("{\"class\":\"TPV\",") == .ndjson)
        #expect(Self.decision("{\n") == .geojson)
        // A one-line GeoJSON document of any length is decided by its start.
        #expect(Self.decision("{\"type\": \"FeatureCollection\", \"features\": [") == .geojson)
        #expect(Self.decision("{\"type\":\"location\"") == .ndjson)
    }

    @Test func undecidedStartsWaitForMore() {
        // gpsd's header reports settle nothing: gpspipe -r prints them before its sentences.
        #expect(Self.decision("{\"class\":\"VERSION\",\"release\":\"3.22\"}\n") == nil)
        #expect(Self.decision("{\"class\":\"WATCH\",\"json\":true}\n{\"class\":\"DEVICES\"}\n") == nil)
        #expect(Self.decision("{\"cla") == nil)
        #expect(Self.decision("{\"type\":\"Feat") == nil)
        #expect(Self.decision("{") == nil)
        #expect(Self.decision("\u{FEFF}") == nil)
        #expect(Self.decision("# comment without its newline") == nil)
        #expect(Self.decision("2015-08-24T05:55:07Z\t*") == nil)
    }

    /// gpspipe -w is settled by its first TPV; gpspipe -r by its first sentence.
    @Test func gpsdCaptures() throws {
        let watch = try String(contentsOfFile: FixReading.fixture("gpsd/gpspipe-w.ndjson"), encoding: .utf8)
            .split(whereSeparator: \.isNewline).map(String.init)
        #expect(Self.decision(watch.prefix(3).joined(separator: "\n") + "\n") == nil)
        #expect(Self.decision(watch.prefix(4).joined(separator: "\n") + "\n") == nil)
        #expect(Self.decision(watch.prefix(5).joined(separator: "\n") + "\n") == .ndjson)
        let raw = try String(contentsOfFile: FixReading.fixture("gpsd/gpspipe-r.nmea"), encoding: .utf8)
            .split(whereSeparator: \.isNewline).map(String.init)
        #expect(Self.decision(raw.prefix(3).joined(separator: "\n") + "\n") == nil)
        #expect(Self.decision(raw.prefix(4).joined(separator: "\n") + "\n") == .nmea)
    }

    @Test func forcedFormatWins() throws {
        let result = try FixReading.read("{\"lat\":1,\"lon\":2}\n", format: .csv)
        #expect(result.format == .csv)
        #expect(result.fixes.isEmpty)
        #expect(result.issues == ["<source>:1: the CSV header names no latitude column (lat, latitude); the rest of the input is not read"])
    }

    @Test func everyFormatHasItsName() {
        #expect(FixFormat.names == "ndjson csv nmea gpx kml tcx geojson")
    }
}
