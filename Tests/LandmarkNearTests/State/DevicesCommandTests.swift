import Foundation
import Testing

/// `landmark-near devices`: its exit statuses, and untrusted names kept off the terminal.
@Suite("devices: the command", .suiteTimeLimit)
struct DevicesCommandTests {
    @Test func exitStatuses() async throws {
        let directory = try makeTemporaryDirectory("devices-command")
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(try await runTool(["devices"]).status == 64)
        #expect(try await runTool(["devices", "--state", "s.db", "extra"]).status == 64)
        #expect(try await runTool(["devices", "--state", "s.db", "--inside", "x"]).status == 64)
        let missing = try await runTool(["devices", "--state", directory.appendingPathComponent("none.db").path])
        #expect(missing.status == 66 && missing.stderr.contains("no such file"))
        let text = directory.appendingPathComponent("text.db")
        try "not a database".write(to: text, atomically: true, encoding: .utf8)
        #expect(try await runTool(["devices", "--state", text.path]).status == 65)
        let help = try await runTool(["devices", "--help"])
        #expect(help.status == 0 && help.stdout.contains("Usage: landmark-near devices --state FILE [--inside ID] [--json]"))
        // An empty state file: nothing to list, status 0.
        let state = directory.appendingPathComponent("s.db").path
        #expect(try await runTool(["watch", "--state", state], stdin: "").status == 0)
        let empty = try await runTool(["devices", "--state", state])
        #expect(empty.status == 0 && empty.stdout == "no devices recorded\n")
    }

    @Test func namesFromClientsAreEscaped() async throws {
        let directory = try makeTemporaryDirectory("devices-escape")
        defer { try? FileManager.default.removeItem(at: directory) }
        let state = directory.appendingPathComponent("s.db").path
        let server = try ServeProcess(["--state", state])
        defer { server.kill() }
        let port = server.port
        // ESC [ 3 1 m in a device name: as JSON, escaped; on a terminal, never raw.
        let put = try await ServeAdminTests.put(port, "/profiles/evil%1B%5B31m", #"{"favorites":[1001]}"#)
        #expect(put.status == 200 && put.body.contains(#""device":"evil\u001b[31m""#), "\(put.body)")
        let fix = #"{"device":"evil\u001b[31m","lat":34.0113,"lon":-116.1669,"time":"2026-05-01T12:00:00Z"}"#
        #expect(try await curl(["--data-binary", fix, "http://127.0.0.1:\(port)/fixes"]).status == 200)
        let listed = try await runTool(["devices", "--state", state])
        #expect(listed.status == 0 && !listed.stdout.contains("\u{1b}") && listed.stdout.contains("Turtle Rock"), "\(listed.stdout)")
        let stopped = try server.stop()
        #expect(stopped.stderr.contains("PUT /profiles (device") && !stopped.stderr.contains("\u{1b}"))
    }
}
