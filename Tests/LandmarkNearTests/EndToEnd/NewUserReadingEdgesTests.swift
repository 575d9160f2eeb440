import Foundation
import Testing

/// What a new user meets in the files they feed in (issue 42, the last part): times without a
/// zone are read as UTC with one warning a run; a GPSBabel KML, which holds its track twice, is
/// read once with the rest counted; `.apns` names keep a `-` of the device name.
@Suite(.suiteTimeLimit) struct NewUserReadingEdgesTests {
    static func warning(_ command: String, _ source: String, line: Int, _ text: String) -> String {
        "landmark-near \(command): warning: times without a zone (\(source) line \(line): \"\(text)\") are read as UTC; add Z or an offset to say otherwise"
    }

    /// A phone's CSV in local time without saying so: read as UTC, one warning for the run (not
    /// one a line, not one an input), naming the first such time; `map` and `fixes` alike.
    @Test func timesWithoutAZoneWarnOnceARun() async throws {
        let directory = try makeTemporaryDirectory("zoneless")
        let csv = directory.appendingPathComponent("phone.csv").path
        try "time,lat,lon\n2024-05-01 12:00:00,34.01,-116.16\n2024-05-01 12:00:05,34.02,-116.16\n2024-05-01T12:00:09,34.03,-116.16\n"
            .write(toFile: csv, atomically: true, encoding: .utf8)
        let ndjson = directory.appendingPathComponent("more.ndjson").path
        try #"{"lat":34.01,"lon":-116.16,"time":"2024-05-01T12:01:00"}"#.appending("\n").write(
            toFile: ndjson, atomically: true, encoding: .utf8)
        let watch = try await runTool(["watch", csv, ndjson])
        #expect(watch.status == 0, "\(watch.stderr)")
        #expect(watch.stdout.contains(#""time":"2024-05-01T12:00:00Z""#), "\(watch.stdout)")
        let expected = Self.warning("watch", csv, line: 2, "2024-05-01 12:00:00")
        #expect(watch.stderr.components(separatedBy: "warning: times without a zone").count == 2, "\(watch.stderr)")
        #expect(watch.stderr.contains(expected + "\n"), "\(watch.stderr)")
        let map = try await runTool(["map", csv, "--geojson", directory.appendingPathComponent("run.geojson").path])
        #expect(map.stderr.contains(Self.warning("map", csv, line: 2, "2024-05-01 12:00:00")), "\(map.stderr)")
        let fixes = try await runTool(
            ["fixes", "--source-name", "phone.csv"], stdin: "time,lat,lon\n2024-05-01T12:00:00.5,34.01,-116.16\n")
        #expect(fixes.stdout.contains(#""time":"2024-05-01T12:00:00.5Z""#), "\(fixes.stdout)")
        #expect(fixes.stderr.contains(Self.warning("fixes", "phone.csv", line: 2, "2024-05-01T12:00:00.5")), "\(fixes.stderr)")
    }

    /// Times with a zone, epoch seconds, GPSBabel's separate date and time columns (UTC by its
    /// definition) and NMEA and GPX (UTC by theirs) say nothing.
    @Test(arguments: [
        #"{"lat":34.01,"lon":-116.16,"time":"2024-05-01T12:00:00Z"}"# + "\n"
            + #"{"lat":34.01,"lon":-116.16,"time":"2024-05-01T14:00:01+02:00"}"#,
        #"{"lat":34.01,"lon":-116.16,"time":"1714564800"}"#,
        "Date,Time,Latitude,Longitude\n2024/05/01,12:00:00,34.01,-116.16",
        "$GPRMC,120000,A,3400.600,N,11609.600,W,0.0,0.0,010524,,*06",
        #"<gpx version="1.1"><trk><trkseg><trkpt lat="34.01" lon="-116.16"><time>2024-05-01T12:00:00</time></trkpt></trkseg></trk></gpx>"#,
    ])
    func timesThatSayTheirZoneOrAreUTCByDefinitionDoNotWarn(_ input: String) async throws {
        let result = try await runTool(["watch"], stdin: input + "\n")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(#""event":"enter""#), "\(result.stdout) \(result.stderr)")
        #expect(!result.stderr.contains("warning"), "\(result.stderr)")
    }

    /// KML, TCX and GeoJSON times are xsd:dateTime / RFC 3339: without a zone they warn too.
    @Test(arguments: [
        #"<kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2"><Placemark><gx:Track><when>2024-05-01T12:00:00</when><gx:coord>-116.16 34.01 0</gx:coord></gx:Track></Placemark></kml>"#,
        #"<TrainingCenterDatabase><Activities><Activity><Lap><Track><Trackpoint><Time>2024-05-01T12:00:00</Time><Position><LatitudeDegrees>34.01</LatitudeDegrees><LongitudeDegrees>-116.16</LongitudeDegrees></Position></Trackpoint></Track></Lap></Activity></Activities></TrainingCenterDatabase>"#,
        #"{"type":"Feature","properties":{"time":"2024-05-01T12:00:00"},"geometry":{"type":"Point","coordinates":[-116.16,34.01]}}"#,
    ])
    func xmlAndGeoJSONTimesWithoutAZoneWarn(_ input: String) async throws {
        let result = try await runTool(["watch"], stdin: input + "\n")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains(Self.warning("watch", "<stdin>", line: 1, "2024-05-01T12:00:00")), "\(result.stderr)")
    }

    /// Live, the warning comes with the first fix that has such a time, not at the end.
    @Test func aLiveStreamIsWarnedAtOnce() async throws {
        let tool = try LiveTool(["watch"])
        tool.write(#"{"device":"a","lat":34.01,"lon":-116.16,"time":"2024-05-01T12:00:00"}"# + "\n")
        #expect(tool.waitForStdoutLines(1, timeout: 10), "\(tool.stdout)")
        #expect(
            tool.waitForStderr(containing: Self.warning("watch", "<stdin>", line: 1, "2024-05-01T12:00:00"), timeout: 10), "\(tool.stderr)")
        tool.write(#"{"device":"a","lat":34.01,"lon":-116.16,"time":"2024-05-01T12:00:05"}"# + "\n")
        tool.closeInput()
        #expect(tool.wait() == 0)
        #expect(tool.stderr.components(separatedBy: "times without a zone").count == 2, "\(tool.stderr)")
    }

    /// GPSBabel's KML of a track (`-o kml,track=1`) holds it as a gx:Track, as a folder of
    /// Points and as a "Path" LineString: the LineString is not read, and the summaries say so.
    @Test func gpsBabelsKMLIsReadOnceAndTheSummarySaysWhatWasNot() async throws {
        let kml = FixReading.fixture("kml/gpsbabel-track-points-path.kml")
        let fixes = try await runTool(["fixes", kml])
        #expect(fixes.status == 0, "\(fixes.stderr)")
        #expect(fixes.stdout.split(separator: "\n").count == 48)
        #expect(
            fixes.stderr.contains(
                "landmark-near fixes: 48 records read, 48 fixes, 0 unreadable; 24 KML LineString coordinates not read (the gx:Track holds the same track)"
            ), "\(fixes.stderr)")
        let watch = try await runTool(["watch", kml])
        #expect(watch.status == 0, "\(watch.stderr)")
        #expect(watch.stderr.contains("; 24 KML LineString coordinates not read (the gx:Track holds the same track)"), "\(watch.stderr)")
        // Without the gx:Track, the path is read.
        let path = try makeTemporaryDirectory("kml").appendingPathComponent("path.kml")
        let text = try String(contentsOfFile: kml, encoding: .utf8)
        let start = try #require(text.range(of: "<gx:Track>"))
        let end = try #require(text.range(of: "</gx:Track>"))
        try text.replacingCharacters(in: start.lowerBound..<end.upperBound, with: "").write(to: path, atomically: true, encoding: .utf8)
        let untracked = try await runTool(["fixes", path.path])
        #expect(untracked.stderr.contains("48 records read, 48 fixes, 0 unreadable\n"), "\(untracked.stderr)")
    }

    /// SPEC 6: `-` is one of the characters a file name keeps.
    @Test func apnsFileNamesKeepAHyphen() async throws {
        let out = try makeTemporaryDirectory("apns").appendingPathComponent("out")
        let input = #"{"device":"phone-1","lat":34.01,"lon":-116.16,"time":"2026-05-01T12:00:00Z"}"# + "\n"
        let result = try await runTool(["watch", "--apns-dir", out.path], stdin: input)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path) == ["phone-1-1001-20260501T120000Z.apns"])
    }
}
