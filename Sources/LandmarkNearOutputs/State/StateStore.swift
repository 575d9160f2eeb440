@_spi(Inlining) import LandmarkNearCore
import LandmarkNearEngine

#if canImport(Glibc)
import Glibc
#endif

/// The `--state FILE` database (SQLite, WAL mode): what the engine knows about each device,
/// and the log of notifications with their delivery status (docs/reference/state.md). One process at a time
/// may hold it (a `.temporaryFailure` otherwise); `sqlite3 FILE 'select ...'` may read it
/// while it runs.
///
/// The commit rhythm is the caller's: decide a batch, `commit` it (device changes and the
/// notifications, as decided), emit them, and pass their ids as `done` to the next commit
/// (or `markDone`). What was decided and not marked done is `undoneNotifications()`.
///
///     let store = try StateStore(path: "state.db")
///     for device in try store.loadDevices() { engine.restore(device) }
///     try store.commit(changes: engine.takeChanges(), decided: batch, done: [])
///     // print and write the batch, then:
///     try store.markDone(batch.map(\.id))
public final class StateStore {
    public let path: String
    private let lock: StateLock
    let database: SQLiteDatabase
    private let upsertDevice: SQLiteStatement
    private let deleteLandmarks: SQLiteStatement
    private let insertLandmark: SQLiteStatement
    private let insertNotification: SQLiteStatement
    private let markNotificationDone: SQLiteStatement
    private let upsertNMEADate: SQLiteStatement
    private let deleteNMEADate: SQLiteStatement
    private let upsertStreamPosition: SQLiteStatement
    /// The id the next decided notification gets.
    package private(set) var nextNotificationID: Int64

    /// Opens (creating when missing) and locks the database.
    public init(path: String) throws(StateError) {
        guard !path.isEmpty else { throw StateError(.io, path: path, reason: "the state file name is empty") }
        self.path = path
        lock = try StateLock(statePath: path)
        database = try SQLiteDatabase(path: path)
        try database.execute("PRAGMA busy_timeout = 2000")
        let mode = try database.prepare("PRAGMA journal_mode = WAL")
        if try mode.step(), mode.string(0)?.lowercased() != "wal" {
            mode.finishRows()
            throw StateError(.io, path: path, reason: "cannot switch the database to WAL mode")
        }
        mode.finishRows()
        // FULL: a commit survives a power loss too, not only a killed process; commits are
        // per batch (at most ~20 a second on a live stream), so the fsync is affordable.
        try database.execute("PRAGMA synchronous = FULL")
        // The version is read before the tables are made: a file of an earlier version keeps
        // its tables (CREATE TABLE IF NOT EXISTS leaves them as they are) and is upgraded.
        try database.execute("BEGIN IMMEDIATE")
        do throws(StateError) {
            try database.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID")
            let version = try database.prepare("SELECT value FROM meta WHERE key = 'schema_version'")
            var found: Int?
            if try version.step() {
                let text = version.string(0) ?? ""
                version.finishRows()
                guard let number = Int(text), number >= 1, number <= StateSchema.version else {
                    throw StateError(
                        .badData, path: path, reason: "state schema version \(text), this landmark-near reads 1 to \(StateSchema.version)")
                }
                found = number
            }
            if var from = found {
                while from < StateSchema.version, let upgrade = StateSchema.upgrades[from] {
                    try database.execute(upgrade)
                    from += 1
                }
            }
            try database.execute(StateSchema.create)
            try database.execute("INSERT OR REPLACE INTO meta VALUES ('schema_version', '\(StateSchema.version)')")
            try database.execute("COMMIT")
        } catch {
            try? database.execute("ROLLBACK")
            throw error
        }
        upsertDevice = try database.prepare(
            """
            INSERT OR REPLACE INTO devices (device, latest_seconds, latest_nanos, latest_time, fix_count,
                previous_latitude, previous_longitude, fix_latitude, fix_longitude, fix_time)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)
            """)
        deleteLandmarks = try database.prepare("DELETE FROM device_landmarks WHERE device = ?1")
        insertLandmark = try database.prepare(
            """
            INSERT INTO device_landmarks (device, landmark_id, inside, notified, notified_seconds, notified_nanos, notified_time,
                entered_seconds, entered_nanos, entered_time, since_seconds, since_nanos, since_time, landmark_index, landmark_name)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)
            """)
        insertNotification = try database.prepare(
            """
            INSERT INTO notifications (id, device, landmark_id, landmark_index, landmark_name, fix_time, fix_number,
                latitude, longitude, distance_m, payload, line, apns_file, status, decided_at)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, 'decided', ?14)
            """)
        markNotificationDone = try database.prepare(
            "UPDATE notifications SET status = 'done', done_at = ?2 WHERE id = ?1 AND status = 'decided'")
        upsertNMEADate = try database.prepare(
            "INSERT OR REPLACE INTO nmea_dates (device, rmc_seconds, rmc_time) VALUES (?1, ?2, ?3)")
        deleteNMEADate = try database.prepare("DELETE FROM nmea_dates WHERE device = ?1")
        upsertStreamPosition = try database.prepare(
            "INSERT OR REPLACE INTO stream_positions (stream, partition, sequence, stream_created, updated_at) VALUES (?1, ?2, ?3, ?4, ?5)")
        let maximum = try database.prepare("SELECT COALESCE(MAX(id), 0) FROM notifications")
        _ = try maximum.step()
        nextNotificationID = (maximum.int64(0) ?? 0) + 1
        maximum.finishRows()
    }

    /// Reserves the next notification id.
    package func takeNotificationID() -> Int64 {
        defer { nextNotificationID += 1 }
        return nextNotificationID
    }

    /// Every device's saved state.
    package func loadDevices() throws(StateError) -> [DeviceSnapshot] {
        var snapshots: [DeviceSnapshot] = []
        var slotOfDevice: [String: Int] = [:]
        let devices = try database.prepare(
            """
            SELECT device, latest_seconds, latest_nanos, fix_count, previous_latitude, previous_longitude,
                   fix_latitude, fix_longitude, fix_time FROM devices
            """)
        while try devices.step() {
            let name = devices.string(0) ?? ""
            var time: Timestamp?
            if let seconds = devices.int64(1), let nanos = devices.int64(2) {
                time = Timestamp(seconds: seconds, nanoseconds: Int32(clamping: nanos))
            }
            slotOfDevice[name] = snapshots.count
            var snapshot = DeviceSnapshot(device: name, latestTime: time, fixCount: Int(devices.int64(3) ?? 0))
            if let latitude = devices.double(4), let longitude = devices.double(5) {
                snapshot.previousFix = Coordinate(latitude: latitude, longitude: longitude)
            }
            if let latitude = devices.double(6), let longitude = devices.double(7) {
                snapshot.latestFix = Coordinate(latitude: latitude, longitude: longitude)
                snapshot.latestFixTime = devices.string(8).flatMap { Timestamp(rfc3339: $0) }
            }
            snapshots.append(snapshot)
        }
        let landmarks = try database.prepare(
            """
            SELECT device, landmark_id, inside, notified, notified_seconds, notified_nanos, entered_seconds, entered_nanos,
                   since_seconds, since_nanos, landmark_index, landmark_name
            FROM device_landmarks
            """)
        while try landmarks.step() {
            let name = landmarks.string(0) ?? ""
            let slot: Int
            if let known = slotOfDevice[name] {
                slot = known
            } else {
                slot = snapshots.count
                slotOfDevice[name] = slot
                snapshots.append(DeviceSnapshot(device: name))
            }
            var time: Timestamp?
            if let seconds = landmarks.int64(4), let nanos = landmarks.int64(5) {
                time = Timestamp(seconds: seconds, nanoseconds: Int32(clamping: nanos))
            }
            var favorite = FavoriteSnapshot(
                landmarkID: Int(landmarks.int64(1) ?? 0), isInside: landmarks.int64(2) == 1,
                isNotified: landmarks.int64(3) == 1, notifiedTime: time)
            if let seconds = landmarks.int64(6), let nanos = landmarks.int64(7) {
                favorite.enteredAt = Timestamp(seconds: seconds, nanoseconds: Int32(clamping: nanos))
            }
            if let seconds = landmarks.int64(8), let nanos = landmarks.int64(9) {
                favorite.since = Timestamp(seconds: seconds, nanoseconds: Int32(clamping: nanos))
            }
            favorite.landmarkIndex = landmarks.int64(10).map { Int($0) }
            favorite.landmarkName = landmarks.string(11)
            snapshots[slot].favorites.append(favorite)
        }
        return snapshots
    }

    /// The date and time of the latest RMC an NMEA input gave, by the device of its fixes: an
    /// NMEA stream resumed after a restart dates its GGA, GLL and GNS sentences from it.
    package func loadNMEADates() throws(StateError) -> [String: Timestamp] {
        var dates: [String: Timestamp] = [:]
        let query = try database.prepare("SELECT device, rmc_seconds FROM nmea_dates")
        while try query.step() {
            if let seconds = query.int64(1) { dates[query.string(0) ?? ""] = Timestamp(seconds: seconds) }
        }
        return dates
    }

    /// How far `serve --nats` read each partition of `stream`, by partition.
    package func loadStreamPositions(stream: String) throws(StateError) -> [Int: StreamPosition] {
        var positions: [Int: StreamPosition] = [:]
        let query = try database.prepare("SELECT partition, sequence, stream_created FROM stream_positions WHERE stream = ?1")
        query.bind(1, stream)
        while try query.step() {
            if let partition = query.int64(0), let sequence = query.int64(1), let created = query.int64(2) {
                positions[Int(partition)] = StreamPosition(
                    stream: stream, partition: Int(partition), sequence: UInt64(sequence), created: created)
            }
        }
        return positions
    }

    /// Notifications decided by an earlier run and not marked done, oldest first.
    package func undoneNotifications() throws(StateError) -> [NotificationRecord] {
        let query = try database.prepare(
            """
            SELECT id, device, landmark_id, landmark_index, landmark_name, fix_time, fix_number,
                   latitude, longitude, distance_m, payload, line, apns_file
            FROM notifications WHERE status = 'decided' ORDER BY id
            """)
        var records: [NotificationRecord] = []
        while try query.step() {
            records.append(
                NotificationRecord(
                    id: query.int64(0) ?? 0, device: query.string(1) ?? "", landmarkID: Int(query.int64(2) ?? 0),
                    landmarkIndex: Int(query.int64(3) ?? 0), landmarkName: query.string(4) ?? "",
                    fixTime: query.string(5).flatMap { Timestamp(rfc3339: $0) }, fixNumber: Int(query.int64(6) ?? 0),
                    coordinate: Coordinate(latitude: query.double(7) ?? 0, longitude: query.double(8) ?? 0),
                    distance: query.double(9) ?? 0, payload: query.string(10) ?? "", line: query.string(11) ?? "",
                    apnsFileName: query.string(12) ?? ""))
        }
        return records
    }

    /// One transaction: the notifications `done` are marked done, the device changes (and
    /// NMEA dates: nil removes one) saved, the `decided` notifications recorded and the stream
    /// positions reached saved. Nothing of it is saved when it throws.
    package func commit(
        changes: [DeviceSnapshot], decided: [NotificationRecord], done: [Int64],
        nmeaDates: [String: Timestamp?] = [:], streamPositions: [StreamPosition] = []
    ) throws(StateError) {
        guard !changes.isEmpty || !decided.isEmpty || !done.isEmpty || !nmeaDates.isEmpty || !streamPositions.isEmpty else { return }
        try database.execute("BEGIN IMMEDIATE")
        do {
            let now = StateStore.wallClock()
            for position in streamPositions {
                upsertStreamPosition.bind(1, position.stream)
                upsertStreamPosition.bind(2, position.partition)
                upsertStreamPosition.bind(3, Int64(clamping: position.sequence))
                upsertStreamPosition.bind(4, position.created)
                upsertStreamPosition.bind(5, now)
                try upsertStreamPosition.run()
            }
            for (device, time) in nmeaDates {
                guard let time else {
                    deleteNMEADate.bind(1, device)
                    try deleteNMEADate.run()
                    continue
                }
                upsertNMEADate.bind(1, device)
                upsertNMEADate.bind(2, time.seconds)
                upsertNMEADate.bind(3, time.rfc3339)
                try upsertNMEADate.run()
            }
            for id in done {
                markNotificationDone.bind(1, id)
                markNotificationDone.bind(2, now)
                try markNotificationDone.run()
            }
            for change in changes {
                upsertDevice.bind(1, change.device)
                upsertDevice.bind(2, change.latestTime.map(\.seconds))
                upsertDevice.bind(3, change.latestTime.map { Int64($0.nanoseconds) })
                upsertDevice.bind(4, change.latestTime?.rfc3339)
                upsertDevice.bind(5, change.fixCount)
                upsertDevice.bind(6, change.previousFix?.latitude)
                upsertDevice.bind(7, change.previousFix?.longitude)
                upsertDevice.bind(8, change.latestFix?.latitude)
                upsertDevice.bind(9, change.latestFix?.longitude)
                upsertDevice.bind(10, change.latestFix == nil ? nil : change.latestFixTime?.rfc3339)
                try upsertDevice.run()
                guard change.favoritesChanged else { continue }
                deleteLandmarks.bind(1, change.device)
                try deleteLandmarks.run()
                for favorite in change.favorites {
                    insertLandmark.bind(1, change.device)
                    insertLandmark.bind(2, favorite.landmarkID)
                    insertLandmark.bind(3, favorite.isInside ? 1 : 0)
                    insertLandmark.bind(4, favorite.isNotified ? 1 : 0)
                    insertLandmark.bind(5, favorite.notifiedTime.map(\.seconds))
                    insertLandmark.bind(6, favorite.notifiedTime.map { Int64($0.nanoseconds) })
                    insertLandmark.bind(7, favorite.notifiedTime?.rfc3339)
                    insertLandmark.bind(8, favorite.enteredAt.map(\.seconds))
                    insertLandmark.bind(9, favorite.enteredAt.map { Int64($0.nanoseconds) })
                    insertLandmark.bind(10, favorite.enteredAt?.rfc3339)
                    insertLandmark.bind(11, favorite.since.map(\.seconds))
                    insertLandmark.bind(12, favorite.since.map { Int64($0.nanoseconds) })
                    insertLandmark.bind(13, favorite.since?.rfc3339)
                    insertLandmark.bind(14, favorite.landmarkIndex.map { Int64($0) })
                    insertLandmark.bind(15, favorite.landmarkName)
                    try insertLandmark.run()
                }
            }
            for record in decided {
                let statement = insertNotification
                statement.bind(1, record.id)
                statement.bind(2, record.device)
                statement.bind(3, record.landmarkID)
                statement.bind(4, record.landmarkIndex)
                statement.bind(5, record.landmarkName)
                statement.bind(6, record.fixTime?.rfc3339)
                statement.bind(7, record.fixNumber)
                statement.bind(8, record.coordinate.latitude)
                statement.bind(9, record.coordinate.longitude)
                statement.bind(10, record.distance)
                statement.bind(11, record.payload)
                statement.bind(12, record.line)
                statement.bind(13, record.apnsFileName)
                statement.bind(14, now)
                try statement.run()
            }
            try database.execute("COMMIT")
        } catch {
            try? database.execute("ROLLBACK")
            throw error
        }
    }

    /// Marks notifications done (emitted) in a transaction of its own.
    package func markDone(_ ids: [Int64]) throws(StateError) {
        try commit(changes: [], decided: [], done: ids)
    }

    /// Now, RFC 3339 UTC (to the millisecond).
    package static func wallClock() -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Timestamp(seconds: Int64(now.tv_sec), nanoseconds: Int32(now.tv_nsec / 1_000_000 * 1_000_000)).rfc3339
    }
}
