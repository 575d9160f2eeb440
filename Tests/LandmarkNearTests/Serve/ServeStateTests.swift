import Foundation
import Testing

/// `serve --state FILE`: a 200 means saved; a kill and a restart in the middle of a stream of
/// posts lose nothing, and SIGHUP keeps every device's state.
@Suite("serve: --state", .suiteTimeLimit)
struct ServeStateTests {
    /// 40 timed fixes of 4 devices going in and out of Turtle Rock's and St. Mary Lake's radius.
    static let fixes: [String] = (0..<40).map { step in
        let device = step % 4
        let inside = (step / 4) % 2 == 0
        let (lat, lon) = device < 2 ? (inside ? 34.0113 : 34.4, -116.1669) : (inside ? 48.69423 : 49.1, -113.536248)
        let time = 1_777_636_800 + step * 1800
        return #"{"device":"d\#(device)","lat":\#(lat),"lon":\#(lon),"time":\#(time)}"#
    }

    func post(_ line: String, port: Int) throws -> Int {
        try HTTPConnection(port: port).request("POST", "/fixes", body: Array((line + "\n").utf8)).status
    }

    @Test(arguments: [SIGTERM, SIGKILL])
    func restartInTheMiddleLosesNothing(signal: Int32) async throws {
        let directory = try makeTemporaryDirectory("serve-state")
        defer { try? FileManager.default.removeItem(at: directory) }
        let state = directory.appendingPathComponent("s.db").path
        let apns = directory.appendingPathComponent("apns").path
        let reference = try await runTool(
            ["watch", "--apns-dir", directory.appendingPathComponent("reference").path],
            stdin: Self.fixes.joined(separator: "\n") + "\n")
        #expect(reference.status == 0)
        let expected = reference.stdout.split(separator: "\n").map(String.init)
        #expect(expected.count >= 8)

        let first = try ServeProcess(["--state", state, "--apns-dir", apns])
        defer { first.kill() }
        for line in Self.fixes[..<23] { #expect(try post(line, port: first.port) == 200) }
        let stopped = try first.stop(signal: signal)
        #expect(stopped.status == (signal == SIGTERM ? 0 : 128 + SIGKILL) || signal == SIGKILL)

        let second = try ServeProcess(["--state", state, "--apns-dir", apns])
        defer { second.kill() }
        for line in Self.fixes[23...] { #expect(try post(line, port: second.port) == 200) }
        let finished = try second.stop()
        #expect(finished.status == 0)

        let lines = (stopped.stdout + finished.stdout).split(separator: "\n").map(String.init)
        if signal == SIGTERM {
            #expect(lines == expected, "exactly one run's notifications")
        } else {
            // At least once: everything, in order, and a repeat only of what was not marked done.
            #expect(Set(lines) == Set(expected))
            #expect(lines.count >= expected.count)
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: apns).sorted()
        let referenceFiles = try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("reference").path)
            .sorted()
        #expect(files == referenceFiles)
    }

    @Test func sighupKeepsDeviceState() async throws {
        let directory = try makeTemporaryDirectory("serve-state")
        defer { try? FileManager.default.removeItem(at: directory) }
        let profiles = directory.appendingPathComponent("profiles.json")
        try #"{"car": {"favorites": [1001]}}"#.write(to: profiles, atomically: true, encoding: .utf8)
        let server = try ServeProcess(["--profiles", profiles.path])
        defer { server.kill() }
        let connection = try HTTPConnection(port: server.port)
        #expect(try connection.request("GET", "/osmand?id=car&lat=34.0113&lon=-116.1669&timestamp=1777636800").status == 200)
        #expect(server.waitForLines(1).count == 1)
        server.signal(SIGHUP)
        let deadline = Date().addingTimeInterval(10)
        while !server.stderr.contains("landmarks and profiles reloaded") && Date() < deadline { usleep(20_000) }
        // Two hours later, still inside: no new enter, since the device stayed inside.
        #expect(try connection.request("GET", "/osmand?id=car&lat=34.0114&lon=-116.1669&timestamp=1777644000").status == 200)
        let result = try server.stop()
        #expect(result.stdout.split(separator: "\n").count == 1)
    }

    /// A notification answered and then no request: it is marked done while serve is idle, so
    /// a `kill -9` then and a restart print nothing again (at least once allows a repeat; a
    /// demanding user expects none after a quiet moment).
    ///
    /// The kill waits for the done mark itself, read from the state with the `sqlite3` shell
    /// (`notificationStatuses`), not for a fixed 0.5 s that a loaded or sanitized run could
    /// outlast. A server that marked it only with the next batch or when it stops never gets
    /// there (no request comes, no SIGTERM): the wait runs out and the restart prints it again.
    @Test func aKillWhileIdleRepeatsNothing() async throws {
        let directory = try makeTemporaryDirectory("serve-idle")
        defer { try? FileManager.default.removeItem(at: directory) }
        let state = directory.appendingPathComponent("s.db").path
        let first = try ServeProcess(["--state", state])
        defer { first.kill() }
        let connection = try HTTPConnection(port: first.port)
        #expect(try connection.request("GET", "/osmand?id=car&lat=34.0113&lon=-116.1669&timestamp=1777636800").status == 200)
        #expect(first.waitForLines(1, timeout: 20).count == 1)
        let statuses = try await notificationStatuses(in: state, becoming: ["done"])
        #expect(statuses == ["done"], "not marked done while serve was idle: \(statuses)")
        _ = try? first.stop(signal: SIGKILL)
        let second = try ServeProcess(["--state", state])
        defer { second.kill() }
        let result = try second.stop()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.isEmpty, "printed again after the restart: \(result.stdout)")
    }

    @Test func aSecondServerOnTheSameStateRefuses() async throws {
        let directory = try makeTemporaryDirectory("serve-state")
        defer { try? FileManager.default.removeItem(at: directory) }
        let state = directory.appendingPathComponent("s.db").path
        let server = try ServeProcess(["--state", state])
        defer { server.kill() }
        let second = try await runTool(["serve", "--listen", "127.0.0.1:0", "--state", state])
        #expect(second.status == 75, "\(second.stderr)")
        _ = try server.stop()
    }
}
