import Foundation
import Testing

/// `landmark-near state check FILE` (issue 43): 0 for a whole file, 65 for a damaged one or one
/// that is not a state database, 66 for none; it reads without the lock, beside a running `watch`.
@Suite(.suiteTimeLimit) struct StateCheckTests {
    /// A state file with `count` notifications, checkpointed (everything in the main file).
    static func makeState(in directory: URL, count: Int = 200) async throws -> String {
        let path = directory.appendingPathComponent("s.db").path
        let input = (0..<count).map { "{\"device\":\"d\($0)\",\"lat\":34.0113,\"lon\":-116.1669}\n" }.joined()
        let run = try await runTool(["watch", "--state", path], stdin: input)
        #expect(run.status == 0)
        _ = try await runProcess("/usr/bin/sqlite3", [path, "PRAGMA wal_checkpoint(TRUNCATE)"])
        return path
    }

    static func sqlite(_ path: String, _ sql: String) async throws {
        let result = try await runProcess("/usr/bin/sqlite3", [path, sql])
        #expect(result.status == 0, "\(result.stderr)")
    }

    @Test func aWholeFileIsOK() async throws {
        let directory = try makeTemporaryDirectory("state-check")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try await Self.makeState(in: directory)
        let result = try await runTool(["state", "check", path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "\(path): ok (schema 4; 200 devices, 200 notifications, 0 undone, 0 deliveries)\n")
        // Nothing left beside it.
        let beside = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(!beside.contains("s.db-wal") && !beside.contains("s.db-shm"), "\(beside)")
    }

    @Test func aDamagedPageIs65() async throws {
        let directory = try makeTemporaryDirectory("state-check")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try await Self.makeState(in: directory)
        // The device table's root page, its header overwritten (as a bad sector would).
        let root = try await runProcess("/usr/bin/sqlite3", [path, "SELECT rootpage FROM sqlite_schema WHERE name = 'devices'"])
        let page = try #require(UInt64(root.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        try handle.seek(toOffset: (page - 1) * 4096)
        try handle.write(contentsOf: Data(repeating: 0xFF, count: 64))
        try handle.close()
        let result = try await runTool(["state", "check", path])
        #expect(result.status == 65)
        #expect(result.stdout.hasPrefix("\(path): damaged ("), "\(result.stdout)")
        #expect(result.stdout.contains("\n  integrity: "), "\(result.stdout)")
    }

    @Test func theProjectsOwnChecks() async throws {
        let directory = try makeTemporaryDirectory("state-check")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try await Self.makeState(in: directory, count: 3)
        try await Self.sqlite(path, "PRAGMA ignore_check_constraints = 1; UPDATE notifications SET status = 'lost' WHERE id = 2")
        let status = try await runTool(["state", "check", path])
        #expect(status.status == 65)
        #expect(status.stdout.contains("  1 notifications with a status other than decided or done"), "\(status.stdout)")
        try await Self.sqlite(path, "UPDATE meta SET value = '99' WHERE key = 'schema_version'")
        let version = try await runTool(["state", "check", path])
        #expect(version.status == 65)
        #expect(version.stdout.contains(#"schema version "99"; this landmark-near reads 1 to 4"#), "\(version.stdout)")
        try await Self.sqlite(path, "DROP TABLE deliveries")
        let table = try await runTool(["state", "check", path])
        #expect(table.stdout.contains("not a LandmarkNear state database: no table deliveries"), "\(table.stdout)")
    }

    @Test func notADatabaseIs65AndNoFileIs66() async throws {
        let directory = try makeTemporaryDirectory("state-check")
        defer { try? FileManager.default.removeItem(at: directory) }
        let text = directory.appendingPathComponent("notes.txt")
        try Data(String(repeating: "not a database\n", count: 100).utf8).write(to: text)
        let notDatabase = try await runTool(["state", "check", text.path])
        #expect(notDatabase.status == 65)
        #expect(notDatabase.stderr.contains("not a database"), "\(notDatabase.stderr)")
        let missing = try await runTool(["state", "check", directory.appendingPathComponent("none.db").path])
        #expect(missing.status == 66)
        #expect(missing.stderr.contains("none.db: no such file"))
        #expect(try await runTool(["state", "check", directory.path]).status == 66)
        #expect(try await runTool(["state", "check"]).status == 64)
        #expect(try await runTool(["state", "fix", "x.db"]).status == 64)
    }

    @Test func checksAFileThatARunHolds() async throws {
        let directory = try makeTemporaryDirectory("state-check")
        defer { try? FileManager.default.removeItem(at: directory) }
        let state = directory.appendingPathComponent("held.db").path
        let server = try ServeProcess(["--state", state, "--favorites", "all"])
        defer { server.kill() }
        let body = Array(#"{"device":"d1","lat":34.0113,"lon":-116.1669}"#.utf8)
        #expect(try HTTPConnection(port: server.port).request("POST", "/fixes", body: body).status == 200)
        let result = try await runTool(["state", "check", state])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains(": ok (schema 4; 1 device, 1 notification, "), "\(result.stdout)")
        #expect(try server.stop().status == 0)
    }
}
