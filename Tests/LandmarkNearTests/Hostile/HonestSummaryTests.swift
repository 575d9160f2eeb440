import Foundation
import Testing

/// Issue 43: what a run says at its end is what happened. A state commit that fails on a full
/// disk stops the run (exit 74, and the message says why); its summary counts the notifications
/// that went out, not those decided.
@Suite("hostile conditions: honest summaries", .suiteTimeLimit)
struct HonestSummaryTests {
    /// `count` devices, each entering Turtle Rock (a favourite of the built-in catalog) once.
    static func entering(_ count: Int) -> Data {
        Data((0..<count).map { "{\"device\":\"d\($0)\",\"lat\":34.0113,\"lon\":-116.1669}\n" }.joined().utf8)
    }

    @Test func aFullDiskSummaryCountsWhatWasEmitted() async throws {
        let disk = try await SmallDisk(kibibytes: 256)
        defer { disk.remove() }
        let result = try await disk.run(["watch", "--state", disk.path + "/s.db"], stdin: Self.entering(6000))
        #expect(result.status == 74, "\(result.stderr)")
        #expect(result.stderr.contains("full") || result.stderr.contains("too large"), "\(result.stderr)")
        let printed = result.stdout.split(separator: "\n").count
        // The run stops at the failed commit: each fix read was a new device entering, so a
        // notification decided; those emitted are exactly the lines printed.
        let summary = try #require(result.stderr.split(separator: "\n").first { $0.contains(" fixes read, ") })
        let counts = /: (\d+) fixes read, .*; (\d+) notifications decided, (\d+) emitted \(/
        let match = try #require(summary.firstMatch(of: counts), "\(summary)")
        #expect(Int(match.2) == Int(match.1))
        #expect(Int(match.3) == printed, "\(summary)")
        #expect(printed < Int(match.2)!)
    }

    @Test func aRunThatEmittedEverythingSaysSoPlainly() async throws {
        let directory = try makeTemporaryDirectory("honest-summary")
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try await runTool(["watch", "--state", directory.appendingPathComponent("s.db").path], stdinData: Self.entering(50))
        #expect(result.status == 0)
        #expect(result.stderr.contains("; 50 notifications (50 enters; 0 exits)"), "\(result.stderr)")
    }
}

/// Issue 43: serve's summary is its last word: no `--explain` line comes after it.
@Suite("serve: the summary comes last", .suiteTimeLimit)
struct ServeSummaryOrderTests {
    @Test func explainLinesComeBeforeTheSummary() async throws {
        let server = try ServeProcess(["--explain", "--favorites", "all"])
        defer { server.kill() }
        for index in 0..<5 {
            let body = Array("{\"device\":\"d\(index)\",\"lat\":34.0113,\"lon\":-116.1669}\n".utf8)
            #expect(try HTTPConnection(port: server.port).request("POST", "/fixes", body: body).status == 200)
        }
        let result = try server.stop()
        #expect(result.status == 0)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.filter { $0.hasPrefix("explain: ") }.count == 5, "\(result.stderr)")
        #expect(lines.last?.hasPrefix("landmark-near serve: 5 fixes read") == true, "\(result.stderr)")
    }
}
