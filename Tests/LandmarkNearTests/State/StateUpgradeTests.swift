import Foundation
import Testing

/// A state file of schema 2 (before who-is-inside and the API's changes): `landmark-near
/// devices` reads it as it is (latest fix and since unknown), and the next start upgrades it
/// to schema 4 in place, keeping every device.
@Suite("state: upgrade from schema 2", .suiteTimeLimit)
struct StateUpgradeTests {
    /// The tables of schema 2, as that release created them.
    static let schema2 = """
        CREATE TABLE IF NOT EXISTS meta (
            key TEXT PRIMARY KEY,
            value TEXT NOT NULL
        ) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS devices (
            device TEXT PRIMARY KEY,
            latest_seconds INTEGER,
            latest_nanos INTEGER,
            latest_time TEXT,
            fix_count INTEGER NOT NULL,
            previous_latitude REAL,
            previous_longitude REAL
        ) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS device_landmarks (
            device TEXT NOT NULL,
            landmark_id INTEGER NOT NULL,
            inside INTEGER NOT NULL,
            notified INTEGER NOT NULL,
            notified_seconds INTEGER,
            notified_nanos INTEGER,
            notified_time TEXT,
            entered_seconds INTEGER,
            entered_nanos INTEGER,
            entered_time TEXT,
            PRIMARY KEY (device, landmark_id)
        ) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS nmea_dates (
            device TEXT PRIMARY KEY,
            rmc_seconds INTEGER NOT NULL,
            rmc_time TEXT NOT NULL
        ) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS notifications (
            id INTEGER PRIMARY KEY,
            device TEXT NOT NULL,
            landmark_id INTEGER NOT NULL,
            landmark_index INTEGER NOT NULL,
            landmark_name TEXT NOT NULL,
            fix_time TEXT,
            fix_number INTEGER NOT NULL,
            latitude REAL NOT NULL,
            longitude REAL NOT NULL,
            distance_m REAL NOT NULL,
            payload TEXT NOT NULL,
            line TEXT NOT NULL,
            apns_file TEXT NOT NULL,
            status TEXT NOT NULL DEFAULT 'decided' CHECK (status IN ('decided', 'done')),
            decided_at TEXT NOT NULL,
            done_at TEXT
        );
        CREATE INDEX IF NOT EXISTS notifications_undone ON notifications(id) WHERE status = 'decided';
        CREATE INDEX IF NOT EXISTS notifications_by_device ON notifications(device, fix_time);
        CREATE TABLE IF NOT EXISTS deliveries (
            notification_id INTEGER NOT NULL REFERENCES notifications(id),
            target TEXT NOT NULL,
            status TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'retried', 'failed', 'retired')),
            attempts INTEGER NOT NULL DEFAULT 0,
            reason TEXT,
            updated_at TEXT NOT NULL,
            PRIMARY KEY (notification_id, target)
        ) WITHOUT ROWID;
        CREATE INDEX IF NOT EXISTS deliveries_open ON deliveries(status) WHERE status IN ('pending', 'retried');
        INSERT INTO meta VALUES ('schema_version', '2');
        INSERT INTO devices (device, latest_seconds, latest_nanos, latest_time, fix_count)
            VALUES ('d1', 1777636800, 0, '2026-05-01T12:00:00Z', 3);
        INSERT INTO device_landmarks (device, landmark_id, inside, notified, notified_seconds, notified_nanos, notified_time)
            VALUES ('d1', 1001, 1, 1, 1777636800, 0, '2026-05-01T12:00:00Z');
        """

    @Test func devicesReadsItAndAStartUpgradesIt() async throws {
        let directory = try makeTemporaryDirectory("state-upgrade")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("old.db").path
        try await StateCheckTests.sqlite(path, Self.schema2)
        let old = try await runTool(["devices", "--state", path, "--json"])
        #expect(old.status == 0)
        #expect(old.stdout == #"{"device":"d1","latestFix":null,"inside":[{"index":null,"id":1001,"name":null,"since":null}]}"# + "\n")
        // Still inside Turtle Rock after the upgrade: no second notification.
        let run = try await runTool(
            ["watch", "--state", path], stdin: #"{"device":"d1","lat":34.0113,"lon":-116.1669,"time":"2026-05-01T12:30:00Z"}"# + "\n")
        #expect(run.status == 0 && run.stdout.isEmpty, "\(run.stderr)")
        let check = try await runTool(["state", "check", path])
        #expect(check.status == 0 && check.stdout.contains("ok (schema 4; 1 device"), "\(check.stdout)")
        let upgraded = try await runTool(["devices", "--state", path])
        #expect(upgraded.stdout.contains(#""d1""#) && upgraded.stdout.contains(": inside id 1001"), "\(upgraded.stdout)")
    }
}
