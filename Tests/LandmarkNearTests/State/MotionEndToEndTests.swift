import Foundation
import Testing

@_spi(Inlining) @testable import LandmarkNearCore
@_spi(Inlining) @testable import LandmarkNearGeodesy

/// `--dwell`, `--crossing` and `--accuracy-policy` through the built tool: the event lines,
/// resuming with `--state` at every split (a pending dwell and the start of the next pass
/// survive the restart), the map's GeoJSON, `--explain`, and bad values.
@Suite(.serialized, .suiteTimeLimit)
struct MotionEndToEndTests {
    static let rock = LandmarkCatalog.embedded[0].coordinate
    static let options = ["--format", "ndjson", "--events", "all", "--dwell", "2m", "--crossing", "5m", "--cooldown", "0"]

    static func point(_ metres: Double, azimuth: Double) -> Coordinate {
        Geodesic.wgs84.destination(from: rock, azimuth: azimuth, distance: metres)
    }

    static func line(_ device: String, _ point: Coordinate, _ seconds: Int, accuracy: Double? = nil) -> String {
        let time = Timestamp(seconds: 1_777_636_800 + Int64(seconds)).rfc3339
        let acc = accuracy.map { ",\"acc\":\(Int($0))" } ?? ""
        return "{\"device\":\"\(device)\",\"lat\":\(point.latitude),\"lon\":\(point.longitude),\"time\":\"\(time)\"\(acc)}\n"
    }

    /// A walker who stays (a dwell), a jogger who leaves before the dwell, a driver with fixes
    /// four minutes apart who passes the rock between two of them, interleaved.
    static let trace: [String] = {
        var lines: [(Int, String)] = []
        for (k, metres) in [20_000.0, 6_000, 4_000, 3_000, 3_500, 5_000, 30_000].enumerated() {
            lines.append((k * 60, line("walker", point(metres, azimuth: 30), k * 60)))
        }
        for (k, metres) in [15_000.0, 7_000, 12_000, 3_000].enumerated() {
            lines.append((k * 60 + 10, line("jogger", point(metres, azimuth: 200), k * 60 + 10)))
        }
        lines.append((20, line("driver", point(20_000, azimuth: 270), 20)))
        lines.append((260, line("driver", point(20_000, azimuth: 95), 260)))
        lines.append((500, line("driver", point(60_000, azimuth: 95), 500)))
        return lines.sorted { $0.0 < $1.0 }.map(\.1)
    }()

    @Test func theTraceGivesADwellACancelledDwellAndAPass() async throws {
        let result = try await runTool(["watch"] + Self.options, stdin: Self.trace.joined())
        #expect(result.status == 0, "\(result.stderr)")
        let lines = ServiceTrace.lines(of: result.stdout)
        let dwell = try #require(lines.first { $0.contains(#""event":"dwell""#) })
        #expect(dwell.contains(#""device":"walker""#))
        #expect(dwell.contains(#""enteredAt":"2026-05-01T12:01:00Z""#))
        #expect(dwell.contains(#""notified":true"#) && dwell.contains(#""payload":{"aps""#))
        #expect(lines.contains { $0.contains(#""event":"enter","via":"crossing","device":"driver""#) })
        #expect(lines.contains { $0.contains(#""device":"jogger""#) && $0.contains(#""reason":"dwell""#) })
        #expect(!lines.contains { $0.contains(#""event":"dwell","device":"jogger""#) }, "the jogger left before the dwell")
        #expect(result.stderr.contains("1 dwell"))
    }

    /// Split at every record boundary and run as two processes with one state file: the two
    /// runs print exactly the lines of one.
    @Test func twoRunsWithStatePrintWhatOneRunDoes() async throws {
        let reference = try await runTool(["watch"] + Self.options, stdin: Self.trace.joined())
        let expected = ServiceTrace.lines(of: reference.stdout)
        #expect(expected.count >= 6)
        for split in 0...Self.trace.count {
            let directory = try makeTemporaryDirectory("motion-resume")
            defer { try? FileManager.default.removeItem(at: directory) }
            let arguments = ["watch"] + Self.options + ["--state", directory.appendingPathComponent("s.db").path]
            let first = try await runTool(arguments, stdin: Self.trace[..<split].joined())
            let second = try await runTool(arguments, stdin: Self.trace[split...].joined())
            #expect(first.status == 0 && second.status == 0, "\(first.stderr)\(second.stderr)")
            #expect(ServiceTrace.lines(of: first.stdout) + ServiceTrace.lines(of: second.stdout) == expected, "split at \(split)")
        }
    }

    @Test func theMapDrawsThePassWhereItCameNearestAndTheDwell() async throws {
        let directory = try makeTemporaryDirectory("motion-map")
        defer { try? FileManager.default.removeItem(at: directory) }
        let geojson = directory.appendingPathComponent("run.geojson")
        let result = try await runTool(["map", "--geojson", geojson.path] + Self.options, stdin: Self.trace.joined())
        #expect(result.status == 0, "\(result.stderr)")
        let text = try String(contentsOf: geojson, encoding: .utf8)
        #expect(text.contains(#""event":"dwell""#) && text.contains(#""enteredAt":"2026-05-01T12:01:00Z""#))
        #expect(text.contains(#""via":"crossing""#))
    }

    @Test func explainTellsThePassTheWaitingDwellAndThePolicy() async throws {
        let result = try await runTool(
            ["watch", "--explain", "--accuracy-policy", "sure"] + Self.options, stdin: Self.trace.joined())
        #expect(result.stderr.contains("passed \"Turtle Rock\" between the fixes at"))
        #expect(result.stderr.contains("dwell in \"Turtle Rock\" fires on the first fix at or after 2026-05-01T12:03:00Z"))
        #expect(result.stderr.contains("waiting to dwell 120 s before it notifies"))
        #expect(result.stderr.contains("--accuracy-policy sure"))
    }

    @Test(arguments: [
        (["--dwell", "-1m"], "--dwell"), (["--dwell", "soon"], "--dwell"), (["--crossing", "abc"], "--crossing"),
        (["--accuracy-policy", "maybe"], "--accuracy-policy"),
    ])
    func badValuesAreUsageErrorsNamingTheOption(_ arguments: [String], _ option: String) async throws {
        let result = try await runTool(["watch"] + arguments, stdin: "")
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("landmark-near watch: \(option)"), "\(result.stderr)")
    }
}
