import Foundation
import Testing

@_spi(Inlining) @testable import LandmarkNearCore

@Suite(.suiteTimeLimit) struct GeoJSONReaderTests {
    /// A pretty-printed document over many lines is one document, not one error a line.
    @Test func prettyPrintedTogeojsonDocument() throws {
        let result = try FixReading.read(path: FixReading.fixture("geojson/togeojson-multitrack.kml.geojson"))
        #expect(result.format == .geojson)
        #expect(result.issues.isEmpty)
        #expect(result.fixes.count > 10)
        #expect(result.fixes.allSatisfy { $0.time != nil })
    }

    @Test func featureSequencePointsDevicesAndTimes() throws {
        let text = """
            {"type":"Feature","properties":{"device":"d1","time":"2026-05-01T12:00:00Z"},"geometry":{"type":"Point","coordinates":[-116.1,34.0]}}
            {"type":"Feature","properties":{"device":"d2","timestamp":1777636805},"geometry":{"type":"Point","coordinates":[-116.2,34.1,100]}}
            {"type":"Feature","properties":{"times":["2026-05-01T12:00:10Z","2026-05-01T12:00:11Z"]},"geometry":{"type":"MultiPoint","coordinates":[[-116.3,34.2],[-116.4,34.3]]}}
            {"type":"Feature","properties":{},"geometry":{"type":"Polygon","coordinates":[[[1,2],[3,4],[5,6],[1,2]]]}}
            {"type":"Feature","properties":{},"geometry":null}
            {"type":"LineString","coordinates":[[-116.5,34.4],[-200,1]]}
            """
        let result = try FixReading.read(text)
        #expect(result.format == .geojson)
        #expect(
            result.fixes == [
                Fix(device: "d1", coordinate: Coordinate(latitude: 34.0, longitude: -116.1), time: FixReading.time("2026-05-01T12:00:00Z")),
                Fix(device: "d2", coordinate: Coordinate(latitude: 34.1, longitude: -116.2), time: FixReading.time("2026-05-01T12:00:05Z")),
                Fix(coordinate: Coordinate(latitude: 34.2, longitude: -116.3), time: FixReading.time("2026-05-01T12:00:10Z")),
                Fix(coordinate: Coordinate(latitude: 34.3, longitude: -116.4), time: FixReading.time("2026-05-01T12:00:11Z")),
                Fix(coordinate: Coordinate(latitude: 34.4, longitude: -116.5)),
            ])
        #expect(result.lines == [1, 2, 3, 3, 6])
        #expect(result.issues == ["<source>:6: GeoJSON: longitude -200.0 is outside [-180, 180]"])
    }

    /// docs/reference/fixes.md: the device from `properties.device` when present, also for the members of a
    /// GeometryCollection (nested ones too).
    @Test func geometryCollectionKeepsTheFeaturesDevice() throws {
        let text =
            #"{"type":"Feature","properties":{"device":"z"},"geometry":{"type":"GeometryCollection","geometries":[{"type":"Point","coordinates":[-116.1,34.0]},{"type":"GeometryCollection","geometries":[{"type":"LineString","coordinates":[[-116.2,34.1],[-116.3,34.2]]}]}]}}"#
        let result = try FixReading.read(text)
        #expect(result.issues.isEmpty)
        #expect(result.fixes.map(\.device) == ["z", "z", "z"])
        #expect(result.fixes.map(\.coordinate.longitude) == [-116.1, -116.2, -116.3])
    }

    /// Documents of every layout one after another (RFC 7464 separators, pretty-printed, a
    /// bare number, strings holding brackets and escaped quotes) read the same as before:
    /// each document's records at the line where it starts.
    @Test func documentsOneAfterAnotherInAnyLayout() throws {
        let text =
            "\u{1E}{\"type\":\"Feature\",\"properties\":{\"device\":\"a]}\\\"\"},\"geometry\":{\"type\":\"Point\",\"coordinates\":[1,2]}}\n"
            + "{\n  \"type\": \"Point\",\n  \"coordinates\": [3, 4]\n}\n\n"
            + "[5]\n"
            + "{\"type\":\"Point\",\"coordinates\":[5,6]}{\"type\":\"Point\",\"coordinates\":[7,8]}"
        let result = try FixReading.read(text, format: .geojson)
        #expect(result.fixes.map(\.device) == ["a]}\"", "default", "default", "default"])
        #expect(result.fixes.map(\.coordinate.latitude) == [2, 4, 6, 8])
        #expect(result.lines == [1, 2, 8, 8])
        #expect(result.issues == ["<source>:7: GeoJSON: an array is not a GeoJSON object"])
    }

    @Test func mismatchedTimesAreReportedAndThePositionsStillRead() throws {
        let text =
            #"{"type":"Feature","properties":{"coordTimes":["2026-05-01T12:00:00Z"]},"geometry":{"type":"LineString","coordinates":[[1,2],[3,4]]}}"#
        let result = try FixReading.read(text)
        #expect(result.fixes.count == 2)
        #expect(
            result.issues == [
                "<source>:1: GeoJSON: properties.coordTimes has 1 times for 2 positions; the positions are read without times"
            ])
    }

    /// A truncated document: one error with its line and column, after nothing else.
    @Test func truncatedDocumentIsOneError() throws {
        let text =
            "{\n  \"type\": \"FeatureCollection\",\n  \"features\": [\n    {\"type\": \"Feature\", \"geometry\": {\"type\": \"Point\", \"coordinates\": [1,"
        let result = try FixReading.read(text)
        #expect(result.fixes.isEmpty)
        #expect(result.issues.count == 1)
        #expect(result.issues.first?.hasPrefix("<source>:4: GeoJSON: ") == true)
        #expect(result.issues.first?.hasSuffix("; the rest is not read") == true)
    }

    @Test func forcedGeoJSONAndAnObjectThatIsNotGeoJSON() throws {
        let result = try FixReading.read(#"{"lat":1,"lon":2}"#, format: .geojson)
        #expect(result.issues == [#"<source>:1: GeoJSON: an object without a "type" is not GeoJSON"#])
    }
}

/// OwnTracks recorder `.rec` files: `TIME<TAB>FLAG<TAB>{json}` lines, from the recorder's own
/// demo data; the counterpart is the same JSON as plain NDJSON (cut -f3).
@Suite(.suiteTimeLimit) struct OwnTracksRecorderTests {
    @Test func demoFileReadsLikeItsJSON() throws {
        let path = FixReading.fixture("owntracks-recorder/demo-iphone.rec")
        let rec = try FixReading.read(path: path)
        #expect(rec.format == .ndjson)
        #expect(rec.issues.isEmpty)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let json = text.split(separator: "\n").map { $0.split(separator: "\t", maxSplits: 2).last.map(String.init) ?? "" }
        let plain = try FixReading.read(json.joined(separator: "\n") + "\n")
        #expect(rec.fixes == plain.fixes)
        #expect(rec.lines == plain.lines)
        #expect(rec.fixes.count == 23)
        #expect(Set(rec.fixes.map(\.device)) == ["NE"])
    }
}

/// GPSBabel's unicsv: separate Date (yyyy/mm/dd) and Time (hh:mm:ss[.sss]) columns, UTC.
@Suite(.suiteTimeLimit) struct UnicsvReaderTests {
    @Test func itrackuFileFromGPSBabel() throws {
        let path = FixReading.fixture("unicsv/gpsbabel-itracku.unicsv")
        let result = try FixReading.read(path: path)
        #expect(result.format == .csv)
        #expect(result.issues.isEmpty)
        let rows = try String(contentsOfFile: path, encoding: .utf8).split(whereSeparator: \.isNewline).dropFirst()
        #expect(result.fixes.count == rows.count)
        // Row 1: 2008/06/21,00:12:25
        #expect(result.fixes.first?.time == FixReading.time("2008-06-21T00:12:25Z"))
    }

    @Test func fractionsDashesAndBadDates() throws {
        let text =
            "No,Latitude,Longitude,Date,Time\n1,34,-116,2026/05/01,12:00:02.250\n2,34,-116,2026-05-01,7:08:44\n3,34,-116,2026/02/31,12:00:00\n4,34,-116,01.05.2026,12:00:00\n"
        let result = try FixReading.read(text)
        #expect(result.fixes.map(\.time) == [FixReading.time("2026-05-01T12:00:02.25Z"), FixReading.time("2026-05-01T07:08:44Z")])
        #expect(
            result.issues == [
                "<source>:4: date \"2026/02/31\" and time \"12:00:00\" are not yyyy/mm/dd and hh:mm:ss[.sss]",
                "<source>:5: date \"01.05.2026\" and time \"12:00:00\" are not yyyy/mm/dd and hh:mm:ss[.sss]",
            ])
    }
}
