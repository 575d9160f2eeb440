import Foundation

/// Rows of a query on a `--state` file, read with the `sqlite3` shell again and again until
/// `done` accepts them or `timeout` seconds have passed; the last read is returned (a failed
/// one as what sqlite3 said). The shell may read the database while the tool that holds it
/// runs (WAL; `StateStore` would take the tool's lock), so a test can wait for what the tool
/// records rather than sleep a time that a loaded machine may outlast.
///
///     let rows = try await stateRows(in: state, "SELECT status FROM notifications") { $0 == ["done"] }
func stateRows(
    in state: String, _ query: String, timeout: Double = 20, until done: ([String]) throws -> Bool
) async throws -> [String] {
    let sqlite = "/usr/bin/sqlite3"
    guard FileManager.default.isExecutableFile(atPath: sqlite) else {
        throw ChildProcessError("sqlite3 is missing: run bash Scripts/setup.sh")
    }
    let deadline = monotonicSeconds() + timeout
    while true {
        let result = try await runProcess(sqlite, [state, query], timeout: 10)
        // A read can meet the writer (`database is locked`): it is tried again.
        let rows = result.status == 0 ? result.stdout.split(separator: "\n").map(String.init) : ["sqlite3 failed: \(result.stderr)"]
        if try done(rows) || monotonicSeconds() >= deadline { return rows }
        try await Task.sleep(for: .milliseconds(20))
    }
}

/// The statuses (`decided`, `done`) of a `--state` file's notifications, oldest first, once
/// they are `expected` or `timeout` seconds have passed (`stateRows`).
///
///     #expect(try await notificationStatuses(in: state, becoming: ["done"]) == ["done"])
func notificationStatuses(in state: String, becoming expected: [String], timeout: Double = 20) async throws -> [String] {
    try await stateRows(in: state, "SELECT status FROM notifications ORDER BY id", timeout: timeout) { $0 == expected }
}
