import Foundation
@_spi(Inlining) import LandmarkNearCore
import LandmarkNearEngine

/// Who is inside, as saved in a `--state` file: each device's latest fix and the landmarks it is
/// inside, with since when (`landmark-near devices`), and the one JSON shape that command and
/// `serve`'s `GET /devices/DEVICE` share. Read-only and without the lock, so it works while a
/// `serve` holds the file (an SQLite reader of the WAL sees the last committed batch).
///
///     for device in try DeviceListing.devices(path: "state.db") { print(DeviceListing.json(device)) }
package enum DeviceListing {
    /// Every saved device, by name bytes; a file of schema 2 has no latest fix or since times
    /// (they read as unknown).
    package static func devices(path: String) throws(StateError) -> [DeviceSnapshot] {
        let database = try StateFileReading.open(path)
        do {
            try database.execute("PRAGMA busy_timeout = 2000")
            try database.execute("BEGIN")  // one snapshot for both queries
            defer { try? database.execute("COMMIT") }
            let current = try hasColumn(database, table: "devices", column: "fix_latitude")
            var snapshots: [DeviceSnapshot] = []
            var slots: [DeviceKey: Int] = [:]
            let devices = try database.prepare(
                current
                    ? "SELECT device, fix_latitude, fix_longitude, fix_time, fix_count FROM devices"
                    : "SELECT device, NULL, NULL, NULL, fix_count FROM devices")
            while try devices.step() {
                var snapshot = DeviceSnapshot(device: devices.string(0) ?? "", fixCount: Int(devices.int64(4) ?? 0))
                if let latitude = devices.double(1), let longitude = devices.double(2) {
                    snapshot.latestFix = Coordinate(latitude: latitude, longitude: longitude)
                    snapshot.latestFixTime = devices.string(3).flatMap { Timestamp(rfc3339: $0) }
                }
                slots[DeviceKey(snapshot.device)] = snapshots.count
                snapshots.append(snapshot)
            }
            let inside = try database.prepare(
                current
                    ? "SELECT device, landmark_id, since_seconds, since_nanos, landmark_index, landmark_name FROM device_landmarks WHERE inside = 1"
                    : "SELECT device, landmark_id, NULL, NULL, NULL, NULL FROM device_landmarks WHERE inside = 1")
            while try inside.step() {
                guard let slot = slots[DeviceKey(inside.string(0) ?? "")] else { continue }
                var favorite = FavoriteSnapshot(landmarkID: Int(inside.int64(1) ?? 0), isInside: true, isNotified: false)
                if let seconds = inside.int64(2), let nanos = inside.int64(3) {
                    favorite.since = Timestamp(seconds: seconds, nanoseconds: Int32(clamping: nanos))
                }
                favorite.landmarkIndex = inside.int64(4).map { Int($0) }
                favorite.landmarkName = inside.string(5)
                snapshots[slot].favorites.append(favorite)
            }
            return snapshots.sorted { $0.device.utf8.lexicographicallyPrecedes($1.device.utf8) }
        } catch {
            // SQLite's "no such table": a database, but not a state database.
            throw StateError(.badData, path: path, reason: error.reason)
        }
    }

    private static func hasColumn(_ database: SQLiteDatabase, table: String, column: String) throws(StateError) -> Bool {
        let info = try database.prepare("SELECT count(*) FROM pragma_table_info('\(table)') WHERE name = '\(column)'")
        guard try info.step() else { return false }
        defer { info.finishRows() }
        return (info.int64(0) ?? 0) > 0
    }

    /// `{"device":..,"latestFix":{"lat","lon","time"},"inside":[{"index","id","name","since"}]}`
    /// (docs/reference/serve.md): `latestFix` null when not known, `since` null for an untimed
    /// enter, `inside` in index order.
    package static func json(_ snapshot: DeviceSnapshot) -> String {
        var text = "{\"device\":"
        JSONWriter.appendString(snapshot.device, to: &text)
        text += ",\"latestFix\":"
        if let fix = snapshot.latestFix {
            text += "{\"lat\":\(JSONWriter.number(fix.latitude)),\"lon\":\(JSONWriter.number(fix.longitude)),\"time\":"
            text += (snapshot.latestFixTime.map { JSONWriter.quoted($0.rfc3339) } ?? "null") + "}"
        } else {
            text += "null"
        }
        text += ",\"inside\":["
        for (position, favorite) in inside(snapshot).enumerated() {
            if position > 0 { text += "," }
            text += "{\"index\":\(favorite.landmarkIndex.map(String.init) ?? "null"),\"id\":\(favorite.landmarkID),\"name\":"
            text += favorite.landmarkName.map(JSONWriter.quoted) ?? "null"
            text += ",\"since\":" + (favorite.since.map { JSONWriter.quoted($0.rfc3339) } ?? "null") + "}"
        }
        return text + "]}"
    }

    /// `"alice/phone" at 52.5,13.4 (2026-05-01T12:00:00Z): inside 12 Boathouse (id 5001) since ...`,
    /// made safe for a terminal.
    package static func humanLine(_ snapshot: DeviceSnapshot) -> String {
        var line = JSONWriter.quoted(snapshot.device)
        if let fix = snapshot.latestFix {
            line += " at \(JSONWriter.number(fix.latitude)),\(JSONWriter.number(fix.longitude))"
            line += " (\(snapshot.latestFixTime?.rfc3339 ?? "untimed"))"
        }
        let inside = inside(snapshot)
        if inside.isEmpty {
            line += ": inside no landmark"
        } else {
            line += ": inside "
            line += inside.map { favorite in
                // Rows saved before schema 3 have no index or name: the id alone.
                (favorite.landmarkIndex.flatMap { index in favorite.landmarkName.map { "\(index) \($0) (id \(favorite.landmarkID))" } }
                    ?? "id \(favorite.landmarkID)")
                    + (favorite.since.map { " since \($0.rfc3339)" } ?? "")
            }
            .joined(separator: ", ")
        }
        return TerminalText.safe(line)
    }

    private static func inside(_ snapshot: DeviceSnapshot) -> [FavoriteSnapshot] {
        snapshot.favorites.filter(\.isInside).sorted {
            ($0.landmarkIndex ?? .max, $0.landmarkID) < ($1.landmarkIndex ?? .max, $1.landmarkID)
        }
    }
}
