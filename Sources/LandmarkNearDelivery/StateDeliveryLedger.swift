@_spi(Inlining) import LandmarkNearCore
import LandmarkNearOutputs
import Synchronization

/// The `--state` database as the delivery log (docs/reference/state.md, docs/reference/delivery.md): one row a delivery in its
/// `deliveries` table — pending when queued, then retried (with the tries so far), delivered,
/// failed (with the reason) or retired. Its own SQLite connection (WAL: it writes beside the
/// engine's commits), used from the engine thread (pending) and the delivery thread (outcomes)
/// behind a mutex. A restart rebuilds the jobs that were not delivered from the notification
/// log: same notification, same target, hence the same `apns-id` and collapse id.
///
///     let ledger = try StateDeliveryLedger(path: "state.db", options: deliveryOptions)
///     try ledger.record(pending: [job])
package final class StateDeliveryLedger: DeliveryLedger {
    private final class Connection {
        let database: SQLiteDatabase
        let insertPending: SQLiteStatement
        let update: SQLiteStatement

        init(path: String) throws(StateError) {
            database = try SQLiteDatabase(path: path)
            try database.execute("PRAGMA busy_timeout = 5000")
            try database.execute("PRAGMA synchronous = FULL")
            insertPending = try database.prepare(
                """
                INSERT OR IGNORE INTO deliveries (notification_id, target, status, attempts, reason, updated_at)
                VALUES (?1, ?2, 'pending', 0, NULL, ?3)
                """)
            update = try database.prepare(
                """
                UPDATE deliveries SET status = ?3, attempts = ?4, reason = ?5, updated_at = ?6
                WHERE notification_id = ?1 AND target = ?2
                """)
        }
    }

    private let connection: Mutex<Connection>
    private let options: DeliveryOptions

    package init(path: String, options: DeliveryOptions) throws(DeliveryError) {
        do {
            connection = Mutex(try Connection(path: path))
        } catch {
            throw DeliveryError(error.kind, error.description)
        }
        self.options = options
    }

    /// `apns:<token>` or `webhook:<url>`. The whole token is stored (a restart needs it; the
    /// profiles file holds it too); `landmark-near deliveries` shows only its last 8 digits.
    static func target(_ job: DeliveryJob) -> String {
        switch job.target {
        case .apns(let token): return "apns:" + token
        case .webhook(let url): return "webhook:" + url
        }
    }

    package func record(pending jobs: [DeliveryJob]) throws(DeliveryError) {
        let durable = jobs.filter { $0.notificationID != nil }
        guard !durable.isEmpty else { return }
        try write { connection throws(StateError) in
            let now = StateStore.wallClock()
            for job in durable {
                connection.insertPending.bind(1, job.notificationID)
                connection.insertPending.bind(2, Self.target(job))
                connection.insertPending.bind(3, now)
                try connection.insertPending.run()
            }
        }
    }

    package func record(_ reports: [DeliveryReport]) throws(DeliveryError) {
        let durable = reports.filter { $0.job.notificationID != nil }
        guard !durable.isEmpty else { return }
        try write { connection throws(StateError) in
            let now = StateStore.wallClock()
            for report in durable {
                let statement = connection.update
                statement.bind(1, report.job.notificationID)
                statement.bind(2, Self.target(report.job))
                let status = report.outcome.isFinal ? report.outcome.status : "retried"
                statement.bind(3, status)
                statement.bind(4, report.attempts)
                switch report.outcome {
                case .failed(let reason), .retired(let reason), .skipped(let reason), .retrying(_, _, let reason): statement.bind(5, reason)
                case .delivered: statement.bind(5, nil as String?)
                }
                statement.bind(6, now)
                try statement.run()
            }
        }
    }

    private func write(_ body: (Connection) throws(StateError) -> Void) throws(DeliveryError) {
        let failure: StateError? = connection.withLock { connection -> StateError? in
            do throws(StateError) {
                try connection.database.execute("BEGIN IMMEDIATE")
                try body(connection)
                try connection.database.execute("COMMIT")
                return nil
            } catch {
                try? connection.database.execute("ROLLBACK")
                return error
            }
        }
        if let failure { throw DeliveryError(failure.kind, "delivery log: " + failure.description) }
    }

    package func undelivered() throws(DeliveryError) -> [DeliveryJob] {
        try jobs(where: "d.status IN ('pending', 'retried')")
    }

    package func deliveredIDs() throws(DeliveryError) -> Set<String> {
        Set(try jobs(where: "d.status = 'delivered'").map(\.id))
    }

    package func retiredTokens() throws(DeliveryError) -> Set<String> {
        let rows: [String]
        do {
            rows = try connection.withLock { connection throws(StateError) in
                let query = try connection.database.prepare(
                    "SELECT DISTINCT target FROM deliveries WHERE status = 'retired' AND target LIKE 'apns:%'")
                var rows: [String] = []
                while try query.step() { rows.append(query.string(0) ?? "") }
                return rows
            }
        } catch {
            throw DeliveryError(error.kind, "delivery log: " + error.description)
        }
        return Set(rows.map { String($0.dropFirst(5)) })
    }

    /// Jobs rebuilt from the log rows matching `condition`, for the targets this run still has
    /// (APNs with --push apns; a webhook URL still given).
    private func jobs(where condition: String) throws(DeliveryError) -> [DeliveryJob] {
        typealias Row = (
            id: Int64, target: String, device: String, landmarkID: Int, time: String?, fixNumber: Int, payload: String, line: String,
            decidedAt: String?
        )
        let rows: [Row]
        do {
            rows = try connection.withLock { connection throws(StateError) in
                let query = try connection.database.prepare(
                    """
                    SELECT d.notification_id, d.target, n.device, n.landmark_id, n.fix_time, n.fix_number, n.payload, n.line,
                           n.decided_at
                    FROM deliveries d JOIN notifications n ON n.id = d.notification_id
                    WHERE \(condition) ORDER BY d.notification_id
                    """)
                var rows: [Row] = []
                while try query.step() {
                    rows.append(
                        (
                            query.int64(0) ?? 0, query.string(1) ?? "", query.string(2) ?? "", Int(query.int64(3) ?? 0),
                            query.string(4), Int(query.int64(5) ?? 0), query.string(6) ?? "", query.string(7) ?? "",
                            query.string(8)
                        ))
                }
                return rows
            }
        } catch {
            throw DeliveryError(error.kind, "delivery log: " + error.description)
        }
        let now = DeliveryClock.epochSeconds()
        var jobs: [DeliveryJob] = []
        for row in rows {
            let time = row.time.flatMap { Timestamp(rfc3339: $0) }
            let key = NotificationKey(device: row.device, landmarkID: row.landmarkID, time: time, fixNumber: row.fixNumber)
            let expiration = Int64((time.map { Double($0.seconds) } ?? now) + options.timeToLive)
            var job: DeliveryJob
            if row.target.hasPrefix("apns:") {
                guard options.apns != nil else { continue }
                job = .apns(
                    notification: key, token: String(row.target.dropFirst(5)),
                    payload: APNsRequest.body(fromPayload: row.payload), expiration: expiration)
            } else if row.target.hasPrefix("webhook:") {
                let url = String(row.target.dropFirst(8))
                guard options.webhooks.contains(url) else { continue }
                // --webhook-ttl from when the notification was decided (an earlier run).
                let decided = row.decidedAt.flatMap { Timestamp(rfc3339: $0) }.map { Double($0.seconds) } ?? now
                job = .webhook(notification: key, url: url, line: row.line, expiration: Int64(decided + options.webhookTimeToLive))
            } else {
                continue
            }
            job.notificationID = row.id
            jobs.append(job)
        }
        return jobs
    }
}
