import Foundation
import Testing

/// The readers from the command line: warnings instead of silent empty runs, unknown XML
/// roots, catalogs and profiles from pipes, nearest's line limit, device names by bytes.
@Suite(.suiteTimeLimit) struct ReadersEndToEndTests {
    static func fixture(_ name: String) -> String { FixReading.fixture(name) }

    /// GPSBabel's NMEA waypoints: no position fix at all. One warning says why; exit 0.
    @Test func nmeaWithoutFixesWarnsOnceAndCountsTheSentences() async throws {
        let result = try await runTool(["watch", Self.fixture("nmea-nofix/gpsbabel-waypoints.nmea")])
        #expect(result.status == 0)
        #expect(result.stdout.isEmpty)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.first?.hasSuffix(": warning: no NMEA sentence had a fix: 9 WPL (no position fix)") == true)
        #expect(lines.last?.hasSuffix("; 9 NMEA sentences without a fix") == true)
    }

    @Test(arguments: [
        (
            "$GPRMC,120000.00,V,,,,,,,010526,,,N\n$GPGGA,120000.00,,,,,0,00,,,M,,M,,\n",
            "no NMEA sentence had a fix: 1 RMC with status V, 1 GGA with quality 0"
        ),
        ("{\"class\":\"VERSION\"}\n{\"class\":\"TPV\",\"mode\":1}\n", "no NDJSON line was a fix: 1 gpsd VERSION, 1 TPV with mode 1"),
        ("time,lat,lon\n", "the CSV has a header row and no data rows"),
        ("<gpx version=\"1.1\"><metadata/></gpx>\n", "the GPX document has no trkpt, rtept or wpt element"),
        ("<kml><Document/></kml>\n", "the KML document has no Point, LineString or gx:Track"),
        (
            "{\"type\":\"FeatureCollection\",\"features\":[]}\n",
            "the GeoJSON has no Point, MultiPoint, LineString or MultiLineString coordinates"
        ),
    ])
    func emptyRunsSayWhy(_ input: String, _ why: String) async throws {
        let result = try await runTool(["watch"], stdin: input)
        #expect(result.status == 0)
        #expect(result.stderr.hasPrefix("<stdin>: warning: \(why)\n"), "\(result.stderr)")
    }

    @Test(arguments: [[], ["--format", "nmea"], ["--format", "gpx"], ["--format", "geojson"]])
    func emptyInputGivesNoWarning(_ format: [String]) async throws {
        let result = try await runTool(["watch"] + format, stdin: "")
        #expect(result.status == 0)
        #expect(!result.stderr.contains("warning"), "\(result.stderr)")
    }

    struct NothingCase: Sendable, CustomTestStringConvertible {
        var format: String?
        var input: String
        var why: String
        var testDescription: String { "\(format ?? "detected"): \(input.debugDescription)" }
    }

    /// docs/reference/fixes.md: a non-empty input that gives no fix and no error prints one warning, also when
    /// all it holds is `#` comments (gpsd's logs begin with them) or blank lines: in each
    /// format that accepts them.
    static let nothingCases: [NothingCase] = {
        let comments = "# gpsd test log\n# no fix yet\n"
        let blanks = "\n  \n\r\n"
        var cases: [NothingCase] = []
        for format in [nil, "ndjson", "csv", "nmea"] as [String?] {
            cases.append(
                NothingCase(format: format, input: comments, why: "the input has no records, only 2 comment lines (starting with #)"))
            cases.append(NothingCase(format: format, input: blanks, why: "the input has no records, only 3 blank lines"))
            cases.append(
                NothingCase(
                    format: format, input: "# one\n\n",
                    why: "the input has no records, only 1 comment line (starting with #) and 1 blank line"))
        }
        for format in ["gpx", "kml", "tcx", "geojson"] {
            cases.append(NothingCase(format: format, input: blanks, why: "the input has no records, only white space"))
        }
        cases.append(NothingCase(format: nil, input: "\u{FEFF}", why: "the input has no records, only a byte-order mark"))
        return cases
    }()

    @Test(arguments: nothingCases)
    func inputsWithNothingButCommentsOrBlankLinesSayWhy(_ nothing: NothingCase) async throws {
        let result = try await runTool(["watch"] + (nothing.format.map { ["--format", $0] } ?? []), stdin: nothing.input)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("<stdin>: warning: \(nothing.why)\n"), "\(result.stderr)")
        #expect(result.stderr.components(separatedBy: "warning").count == 2, "one warning: \(result.stderr)")
    }

    /// The same through gzip, and a gzip member that inflates to nothing.
    @Test func gzipOfCommentsOrOfNothingSaysWhy() async throws {
        let comments = try await runTool(["watch"], stdinData: GzipWriter.compress(Data("# only a comment\n".utf8)))
        #expect(comments.status == 0)
        #expect(
            comments.stderr.hasPrefix("<stdin>: warning: the input has no records, only 1 comment line (starting with #)\n"),
            "\(comments.stderr)")
        let nothing = try await runTool(["watch"], stdinData: GzipWriter.compress(Data()))
        #expect(nothing.status == 0)
        #expect(nothing.stderr.hasPrefix("<stdin>: warning: the input is gzip data that inflates to nothing\n"), "\(nothing.stderr)")
    }

    @Test func unknownXMLRootIsOneErrorExit65() async throws {
        let result = try await runTool(
            ["watch"], stdin: "<?xml version=\"1.0\"?>\n<osm version=\"0.6\"><node lat=\"1\" lon=\"2\"/></osm>\n")
        #expect(result.status == 65)
        #expect(
            result.stderr.hasPrefix(
                "<stdin>:2: XML root element <osm> is not gpx, kml or TrainingCenterDatabase (GPX, KML, TCX); nothing is read\n"))
        let forced = try await runTool(["watch", "--format", "gpx", Self.fixture("kml/togeojson-point.kml")])
        #expect(forced.status == 65)
        #expect(forced.stderr.contains("XML root element <kml> is KML, not GPX (--format gpx); nothing is read"))
    }

    @Test(arguments: ["kml", "tcx", "geojson", "csv", "ndjson", "nmea", "gpx"])
    func formatNamesAreAccepted(_ name: String) async throws {
        let result = try await runTool(["watch", "--format", name], stdin: "")
        #expect(result.status == 0, "\(result.stderr)")
    }

    /// Two devices that Unicode calls equal, each notified.
    @Test func unicodeEquivalentDeviceNamesAreTwoDevices() async throws {
        let input = """
            {"device":"caf\u{E9}","lat":34.011286,"lon":-116.166868}
            {"device":"cafe\u{301}","lat":34.011286,"lon":-116.166868}

            """
        let result = try await runTool(["watch"], stdin: input)
        #expect(result.status == 0)
        #expect(result.stdout.split(separator: "\n").count == 2)
        #expect(result.stderr.contains("; 2 devices"))
    }

    @Test func catalogAndProfilesFromAPipeOrFIFO() async throws {
        let catalog = "id,name,lat,lon,isFavorite\n7,Pipe Rock,34.0,-116.1,true\n"
        let fix = #"{"device":"d1","lat":34.0,"lon":-116.1}"#
        let fromStdin = try await runTool(["nearest", "34.0", "-116.1", "--json", "--landmarks", "/dev/stdin"], stdin: catalog)
        #expect(fromStdin.status == 0, "\(fromStdin.stderr)")
        #expect(fromStdin.stdout.contains("\"name\":\"Pipe Rock\""))
        let directory = try makeTemporaryDirectory("fifo")
        let fifo = directory.appendingPathComponent("landmarks.csv").path
        let profiles = directory.appendingPathComponent("profiles.json").path
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(mkfifo(profiles, 0o600) == 0)
        let writers = DispatchGroup()
        for (path, text) in [(fifo, catalog), (profiles, #"{"d1": {"prefersNotifications": false}}"#)] {
            DispatchQueue.global().async(group: writers) {
                let handle = FileHandle(forWritingAtPath: path)
                handle?.write(Data(text.utf8))
                try? handle?.close()
            }
        }
        let result = try await runTool(["watch", "--landmarks", fifo, "--profiles", profiles, "--events", "all"], stdin: fix + "\n")
        writers.wait()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("\"name\":\"Pipe Rock\""))
        #expect(result.stdout.contains("\"reason\":\"profile\""))
    }

    /// A 2 MiB line costs no more than the 1 MiB bound, and the lines after it are answered.
    @Test func nearestStdinHasALineLimit() async throws {
        let input = String(repeating: "1", count: 2 << 20) + "\n34.0,-116.1\n"
        let result = try await runTool(["nearest", "--json"], stdin: input)
        #expect(result.status == 65)
        #expect(result.stderr.hasPrefix("<stdin>:1: line longer than 1048576 bytes; skipped\n"))
        #expect(result.stdout.split(separator: "\n").count == 1)
        #expect(result.stdout.contains("Turtle Rock"))
    }
}
