import Foundation
import Testing

@testable import LandmarkNear

/// `landmark-near fixes`: each fix as one canonical NDJSON line, which `watch` reads back to the
/// same answers as the original trace (the property Scripts/spark-watch.py relies on).
@Suite(.suiteTimeLimit)
struct FixesCommandTests {
    static let traces = [
        "owntracks.ndjson", "gpslogger.csv", "gpsd/gpspipe-w.ndjson", "gpsd/gpspipe-r.nmea",
        "gpsd/gpsfake-drive.nmea", "mixed-talkers.nmea", "gpx/route.gpx", "gpx/unicode_with_bom.gpx",
    ]

    @Test(arguments: traces) func canonicalLinesGiveTheSameEventsAsTheTrace(_ trace: String) async throws {
        let path = repositoryRoot.appendingPathComponent("Tests/LandmarkNearTests/Fixtures/Fixes").appendingPathComponent(trace).path
        let options = ["--favorites", "all", "--events", "all", "--radius", "50km"]
        let direct = try await runTool(["watch", path] + options)
        let fixes = try await runTool(["fixes", path])
        #expect(fixes.status == direct.status, "\(fixes.stderr)")
        let replayed = try await runTool(["watch", "--format", "ndjson"] + options, stdin: fixes.stdout)
        #expect(replayed.status == 0, "\(replayed.stderr)")
        #expect(replayed.stdout == direct.stdout)
        // Unreadable records are reported by `fixes` exactly as watch reports them.
        let issues = { (text: String) in text.split(separator: "\n").filter { $0.hasPrefix(path + ":") } }
        #expect(issues(fixes.stderr) == issues(direct.stderr))
        #expect(fixes.stderr.contains("landmark-near fixes: "))
    }

    @Test func linesAreCanonicalAndRoundTripTimesAndAwkwardNames() async throws {
        let input = """
            {"tid":"say \\"hi\\"","lat":"-0.0","lon":180,"tst":1777636802.25,"acc":0}
            {"device":"caf\u{E9}","lat":1e-7,"lon":-179.999999,"time":"2026-05-01T14:00:02.123456789+02:00","accuracy":12.5}
            {"lat":10,"lon":20}

            """
        let result = try await runTool(["fixes", "--source-name", "phone.ndjson"], stdin: input)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout.split(separator: "\n").map(String.init) == [
                #"{"device":"say \"hi\"","lat":-0,"lon":180,"time":"2026-05-01T12:00:02.25Z"}"#,
                #"{"device":"café","lat":1e-07,"lon":-179.999999,"time":"2026-05-01T12:00:02.123456789Z","acc":12.5}"#,
                #"{"device":"default","lat":10,"lon":20}"#,
            ])
        #expect(result.stderr == "landmark-near fixes: 3 records read, 3 fixes, 0 unreadable\n")
    }

    @Test func badRecordsNameTheSourceGivenForStdin() async throws {
        let result = try await runTool(
            ["fixes", "--source-name", "phone.ndjson"], stdin: "{\"lat\":1,\"lon\":2}\n{\"lat\":91,\"lon\":2}\n")
        #expect(result.status == 65)
        #expect(result.stderr.hasPrefix("phone.ndjson:2: "))
        #expect(result.stderr.contains("2 records read, 1 fixes, 1 unreadable"))
    }

    @Test(arguments: [
        StatusCase(["fixes", "/nonexistent.ndjson"], 66), StatusCase(["fixes", "--format", "xml"], 64),
        StatusCase(["fixes", "--bogus"], 64),
    ])
    func statuses(_ check: StatusCase) async throws {
        let result = try await runTool(check.arguments, stdin: "")
        #expect(result.status == check.status)
    }
}
