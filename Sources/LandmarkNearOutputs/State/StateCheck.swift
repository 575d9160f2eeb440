import Foundation
@_spi(Inlining) import LandmarkNearCore

/// `landmark-near state check FILE`: whether a `--state` database is whole. SQLite's own
/// `PRAGMA integrity_check` (every page, index and constraint: it reads the whole file), then
/// this project's checks, each one query: the schema version is one this release reads, every
/// table is there, and every notification and delivery has a status the tool writes. Read-only
/// and without the lock, so it may run while a `watch` or `serve` holds the file (it reads one
/// consistent snapshot of it).
///
///     let report = try StateCheck.run(path: "state.db")
///     report.problems.isEmpty   // true: the file is whole
///
/// What a start checks, by comparison (docs/reference/state.md): that the file is an SQLite
/// database (its header) of a schema version it reads, and that it can be written; not every
/// page, which would make a start as slow as the file is large.
package struct StateCheck: Sendable, Equatable {
    package var schemaVersion: Int?
    package var devices = 0
    package var notifications = 0
    /// Notifications decided and not marked done: the next run emits them.
    package var undone = 0
    package var deliveries = 0
    /// What is wrong, one line each; empty when the file is whole.
    package var problems: [String] = []

    /// Tables every version has; a file of an earlier version lacks the later ones until it
    /// is upgraded (at the next start).
    static let tables = ["meta", "devices", "device_landmarks", "nmea_dates", "notifications", "deliveries"]
    /// More problems than this are counted, not listed (a badly damaged file lists thousands).
    static let listed = 20

    /// Checks the database at `path`: `.missingInput` when there is no such file (or it cannot
    /// be opened), `.badData` when it is not an SQLite database at all. Damage found inside one
    /// is in `problems`.
    package static func run(path: String) throws(StateError) -> StateCheck {
        let database = try StateFileReading.open(path)
        var check = StateCheck()
        do {
            try database.execute("PRAGMA busy_timeout = 2000")
            // One snapshot for every query below.
            try database.execute("BEGIN")
            defer { try? database.execute("COMMIT") }
            try check.integrity(database)
            try check.schema(database)
            if check.problems.isEmpty { try check.contents(database) }
        } catch {
            // SQLite refuses a file that is not a database at all, or whose damage stops a query.
            if error.kind == .badData, check.problems.isEmpty, error.reason.contains("not a database") { throw error }
            check.problems.append(TerminalText.safe(error.reason))
        }
        return check
    }

    /// `PRAGMA integrity_check`: "ok", or up to `listed` problems.
    private mutating func integrity(_ database: SQLiteDatabase) throws(StateError) {
        let pragma = try database.prepare("PRAGMA integrity_check(\(StateCheck.listed))")
        while try pragma.step() {
            let row = pragma.string(0) ?? ""
            guard row != "ok" else { continue }
            // A row may hold several lines, the first naming the database ("*** in database main ***").
            for line in row.split(separator: "\n") where !line.hasPrefix("*** in database") {
                problems.append("integrity: " + TerminalText.safe(String(line)))
            }
        }
    }

    /// The tables, and the schema version this release reads.
    private mutating func schema(_ database: SQLiteDatabase) throws(StateError) {
        let names = try database.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'")
        var present = Set<String>()
        while try names.step() { present.insert(names.string(0) ?? "") }
        let missing = StateCheck.tables.filter { !present.contains($0) }
        if !missing.isEmpty {
            problems.append("not a LandmarkNear state database: no table \(missing.joined(separator: ", "))")
            return
        }
        let version = try database.prepare("SELECT value FROM meta WHERE key = 'schema_version'")
        guard try version.step() else {
            problems.append("no schema_version in the meta table")
            return
        }
        let text = version.string(0) ?? ""
        version.finishRows()
        guard let number = Int(text), number >= 1, number <= StateSchema.version else {
            problems.append("schema version \(TerminalText.quoted(text)); this landmark-near reads 1 to \(StateSchema.version)")
            return
        }
        schemaVersion = number
    }

    /// The counts, and the statuses the tool writes.
    private mutating func contents(_ database: SQLiteDatabase) throws(StateError) {
        devices = try count(database, "SELECT count(*) FROM devices")
        notifications = try count(database, "SELECT count(*) FROM notifications")
        undone = try count(database, "SELECT count(*) FROM notifications WHERE status = 'decided'")
        deliveries = try count(database, "SELECT count(*) FROM deliveries")
        let badNotifications = try count(database, "SELECT count(*) FROM notifications WHERE status NOT IN ('decided', 'done')")
        if badNotifications > 0 { problems.append("\(badNotifications) notifications with a status other than decided or done") }
        let badDeliveries = try count(
            database, "SELECT count(*) FROM deliveries WHERE status NOT IN ('pending', 'delivered', 'retried', 'failed', 'retired')")
        if badDeliveries > 0 { problems.append("\(badDeliveries) deliveries with an unknown status") }
        let undated = try count(database, "SELECT count(*) FROM notifications WHERE status = 'done' AND done_at IS NULL")
        if undated > 0 { problems.append("\(undated) notifications marked done without a done_at time") }
    }

    private func count(_ database: SQLiteDatabase, _ query: String) throws(StateError) -> Int {
        let statement = try database.prepare(query)
        guard try statement.step() else { return 0 }
        defer { statement.finishRows() }
        return Int(statement.int64(0) ?? 0)
    }

    /// `state.db: ok (schema 2; 12 devices, 40 notifications, 1 undone, 3 deliveries)`, or
    /// `state.db: damaged (2 problems):` and a line each.
    package func report(for path: String) -> [String] {
        let shown = TerminalText.safe(path)
        guard problems.isEmpty else {
            return ["\(shown): damaged (\(problems.count) problem\(problems.count == 1 ? "" : "s")):"] + problems.map { "  " + $0 }
        }
        var counts = "schema \(schemaVersion ?? 0); \(devices) device\(devices == 1 ? "" : "s"), "
        counts += "\(notifications) notification\(notifications == 1 ? "" : "s"), \(undone) undone, "
        counts += "\(deliveries) deliver\(deliveries == 1 ? "y" : "ies")"
        if let schemaVersion, schemaVersion < StateSchema.version {
            counts += "; upgraded to schema \(StateSchema.version) at the next start"
        }
        return ["\(shown): ok (\(counts))"]
    }
}
