import Foundation
import Testing

@_spi(Inlining) @testable import LandmarkNearCore
@testable import LandmarkNearReaders

/// KML 2.2 on real files: togeojson's test data (with togeojson's own GeoJSON conversions of
/// them as the counterpart) and GPSBabel's reference track.
@Suite(.suiteTimeLimit) struct KMLReaderTests {
    @Test func gxTrackGivesTheFixesOfTogeojsonsConversion() throws {
        let kml = try FixReading.read(path: FixReading.fixture("kml/togeojson-gxtrack.kml"))
        let geojson = try FixReading.read(path: FixReading.fixture("geojson/togeojson-gxtrack.kml.geojson"))
        #expect(kml.format == .kml)
        #expect(geojson.format == .geojson)
        #expect(kml.issues.isEmpty && geojson.issues.isEmpty)
        #expect(kml.fixes.count == 7)
        #expect(kml.fixes == geojson.fixes)
        #expect(kml.fixes.allSatisfy { $0.time != nil })
        #expect(kml.fixes.first?.time == FixReading.time("2010-05-28T02:02:09Z"))
    }

    /// GPSBabel's KML 2.3 reference: an unprefixed `Track` with the same data.
    @Test func kml23TrackWithoutThePrefix() throws {
        let babel = try FixReading.read(path: FixReading.fixture("kml/gpsbabel-Placemark-Track-1.kml"))
        let togeojson = try FixReading.read(path: FixReading.fixture("kml/togeojson-gxtrack.kml"))
        #expect(babel.issues.isEmpty)
        #expect(babel.fixes == togeojson.fixes)
    }

    @Test func multiTrackGivesTheFixesOfTogeojsonsConversion() throws {
        let kml = try FixReading.read(path: FixReading.fixture("kml/togeojson-multitrack.kml"))
        let geojson = try FixReading.read(path: FixReading.fixture("geojson/togeojson-multitrack.kml.geojson"))
        #expect(kml.issues.isEmpty && geojson.issues.isEmpty)
        #expect(!kml.fixes.isEmpty)
        #expect(kml.fixes == geojson.fixes)
    }

    @Test func lineStringAndPointCoordinatesAreUntimed() throws {
        let lines = try FixReading.read(path: FixReading.fixture("kml/togeojson-linestring.kml"))
        #expect(lines.issues.isEmpty)
        #expect(lines.fixes.count == 4)
        #expect(lines.fixes.first?.coordinate == Coordinate(latitude: 37.824664, longitude: -122.364383))
        #expect(lines.fixes.allSatisfy { $0.time == nil })
        let point = try FixReading.read(path: FixReading.fixture("kml/togeojson-point.kml"))
        #expect(point.fixes.count == 1 && point.issues.isEmpty)
    }

    /// A Placemark's TimeStamp times its Point even when it comes after the geometry; polygons
    /// are areas and are not read; a document with a gx:Track draws it again as LineStrings: no
    /// LineString of it is read (its own Placemark's, or another's), not even a bad coordinate,
    /// and each is counted.
    @Test func placemarkTimeStampsPolygonsAndDuplicatePaths() throws {
        let text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2"><Document>
            <Placemark><Point><coordinates>-116.1,34.0,0</coordinates></Point>
              <TimeStamp><when>2026-05-01T12:00:00Z</when></TimeStamp></Placemark>
            <Placemark><Polygon><outerBoundaryIs><LinearRing><coordinates>1,2 3,4 5,6 1,2</coordinates></LinearRing></outerBoundaryIs></Polygon></Placemark>
            <Placemark><MultiGeometry>
              <gx:Track><when>2026-05-01T12:00:05Z</when><gx:coord>-116.2 34.1 0</gx:coord></gx:Track>
              <LineString><coordinates>-116.2,34.1,0</coordinates></LineString></MultiGeometry></Placemark>
            <Placemark><LineString><coordinates>
              -116.3,34.2 -116.4,34.3,10
              -200,1 x,y
            </coordinates></LineString></Placemark>
            </Document></kml>
            """
        let result = try FixReading.read(text)
        #expect(result.format == .kml)
        #expect(
            result.fixes == [
                Fix(coordinate: Coordinate(latitude: 34.0, longitude: -116.1), time: FixReading.time("2026-05-01T12:00:00Z")),
                Fix(coordinate: Coordinate(latitude: 34.1, longitude: -116.2), time: FixReading.time("2026-05-01T12:00:05Z")),
            ])
        #expect(result.issues.isEmpty)
        #expect(result.skipped.count(where: { $0 == KMLVocabulary.lineStringCoordinateSkipped }) == 5)
    }

    /// SPEC 3: the decision is the document's. A LineString before the gx:Track is held back and
    /// dropped when the track begins; the Point between them is handed on, in its place.
    @Test func aLineStringBeforeTheTrackIsNotReadEither() throws {
        let text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2"><Document>
            <Placemark><LineString><coordinates>-116.2,34.1 -116.3,34.2 -200,1</coordinates></LineString></Placemark>
            <Placemark><Point><coordinates>-116.1,34.0</coordinates></Point></Placemark>
            <Placemark><gx:Track><when>2026-05-01T12:00:05Z</when><gx:coord>-116.2 34.1 0</gx:coord></gx:Track></Placemark>
            </Document></kml>
            """
        let result = try FixReading.read(text)
        #expect(
            result.fixes == [
                Fix(coordinate: Coordinate(latitude: 34.0, longitude: -116.1)),
                Fix(coordinate: Coordinate(latitude: 34.1, longitude: -116.2), time: FixReading.time("2026-05-01T12:00:05Z")),
            ])
        #expect(result.lines == [4, 5])
        #expect(result.issues.isEmpty)
        #expect(result.skipped.count(where: { $0 == KMLVocabulary.lineStringCoordinateSkipped }) == 3)
    }

    /// Without a gx:Track the LineStrings are read, in document order with the rest, also when
    /// the document is cut short (what was held back is handed on at the end of the input).
    @Test func withoutATrackLineStringsAreRead() throws {
        let whole = """
            <?xml version="1.0" encoding="UTF-8"?>
            <kml xmlns="http://www.opengis.net/kml/2.2"><Document>
            <Placemark><LineString><coordinates>-116.2,34.1 -200,1 -116.3,34.2</coordinates></LineString></Placemark>
            <Placemark><Point><coordinates>-116.1,34.0</coordinates></Point></Placemark>
            </Document></kml>
            """
        for text in [whole, String(whole.dropLast("</Document></kml>".count))] {
            let result = try FixReading.read(text)
            #expect(
                result.fixes == [
                    Fix(coordinate: Coordinate(latitude: 34.1, longitude: -116.2)),
                    Fix(coordinate: Coordinate(latitude: 34.2, longitude: -116.3)),
                    Fix(coordinate: Coordinate(latitude: 34.0, longitude: -116.1)),
                ])
            #expect(result.issues.first == "<source>:3: <coordinates>: longitude -200.0 is outside [-180, 180]")
            #expect(result.skipped.isEmpty)
        }
    }

    /// GPSBabel 1.8.0's KML of a GPX track (`-o kml,track=1`; `points` and `lines` at their
    /// default 1): the gx:Track, a "Points" folder of the same points, and a "Path" LineString.
    /// The track and the points are read; the path is not, and is counted.
    @Test func gpsBabelsTrackPointsAndPath() throws {
        let result = try FixReading.read(path: FixReading.fixture("kml/gpsbabel-track-points-path.kml"))
        #expect(result.issues.isEmpty)
        #expect(result.fixes.count == 48)
        #expect(result.fixes.allSatisfy { $0.time != nil })
        #expect(Array(result.fixes[..<24]) == Array(result.fixes[24...]), "the points are the track's")
        #expect(result.skipped.count(where: { $0 == KMLVocabulary.lineStringCoordinateSkipped }) == 24)
        #expect(result.zonelessTime == nil)
    }
}

/// TCX on GPSBabel's reference file, with GPSBabel itself as the counterpart.
@Suite(.suiteTimeLimit) struct TCXReaderTests {
    @Test func konaTrackpointsAsGPSBabelReadsThem() throws {
        let path = FixReading.fixture("tcx/gpsbabel-kona2013.tcx")
        let result = try FixReading.read(path: path)
        #expect(result.format == .tcx)
        #expect(result.issues.isEmpty)
        #expect(result.fixes.first?.time == FixReading.time("2013-10-12T18:17:26Z"))
        let converted = try GPSBabel.convert(path, from: "gtrnctr", to: "unicsv,utc=0", tracks: true)
        let counterpart = try FixReading.read(converted)
        #expect(counterpart.format == .csv)
        #expect(result.fixes.count == counterpart.fixes.count)
        for (ours, theirs) in zip(result.fixes, counterpart.fixes) {
            #expect(ours.time == theirs.time)
            #expect(abs(ours.coordinate.latitude - theirs.coordinate.latitude) < 1e-6)
            #expect(abs(ours.coordinate.longitude - theirs.coordinate.longitude) < 1e-6)
        }
    }

    @Test func trackpointsWithoutPositionAreNotFixes() throws {
        let text = """
            <TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2"><Activities><Activity><Lap><Track>
            <Trackpoint><Time>2026-05-01T12:00:00Z</Time><HeartRateBpm><Value>90</Value></HeartRateBpm></Trackpoint>
            <Trackpoint><Time>2026-05-01T12:00:01.500Z</Time><Position><LatitudeDegrees>34.0</LatitudeDegrees><LongitudeDegrees>-116.1</LongitudeDegrees></Position></Trackpoint>
            <Trackpoint><Time>soon</Time><Position><LatitudeDegrees>34.0</LatitudeDegrees><LongitudeDegrees>-116.1</LongitudeDegrees></Position></Trackpoint>
            <Trackpoint><Position><LatitudeDegrees>north</LatitudeDegrees><LongitudeDegrees>-116.1</LongitudeDegrees></Position></Trackpoint>
            </Track></Lap></Activity></Activities></TrainingCenterDatabase>
            """
        let result = try FixReading.read(text)
        #expect(
            result.fixes == [
                Fix(coordinate: Coordinate(latitude: 34.0, longitude: -116.1), time: FixReading.time("2026-05-01T12:00:01.5Z"))
            ])
        #expect(result.lines == [3])
        #expect(
            result.issues == [
                "<source>:4: <Trackpoint>: Time \"soon\" is not an RFC 3339 date-time",
                "<source>:5: <Trackpoint>: LatitudeDegrees \"north\" is not a number",
            ])
    }
}

/// GPSBabel (Debian's `gpsbabel`) as a test counterpart.
enum GPSBabel {
    static let executable = "/usr/bin/gpsbabel"

    struct Missing: Error, CustomStringConvertible {
        var description: String { "gpsbabel is not installed: run bash Scripts/setup.sh" }
    }

    /// `gpsbabel [-t] -i FROM -f PATH -o TO -F -`, in UTC.
    static func convert(_ path: String, from input: String, to output: String, tracks: Bool = false) throws -> String {
        guard FileManager.default.isExecutableFile(atPath: executable) else { throw Missing() }
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = (tracks ? ["-t"] : []) + ["-i", input, "-f", path, "-o", output, "-F", "-"]
        var environment = ProcessInfo.processInfo.environment
        environment["TZ"] = "UTC"
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "gpsbabel \(process.arguments!.joined(separator: " "))")
        return String(decoding: data, as: UTF8.self)
    }
}
