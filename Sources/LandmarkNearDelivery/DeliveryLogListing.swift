import Foundation
@_spi(Inlining) import LandmarkNearCore
import LandmarkNearOutputs

/// `landmark-near deliveries --state FILE`: what was sent to whom and what APNs (or the
/// webhook) said, from the state database's `deliveries` table joined with its notification
/// log. Read-only and lock-free, so it works while a `watch` holds the file. Tokens appear as
/// their last 8 hex digits, webhook URLs without credentials or query.
///
///     for row in try DeliveryLogListing.rows(path: "state.db") { print(row.humanLine) }
package struct DeliveryLogListing: Sendable, Equatable {
    package var notificationID: Int64
    package var device: String
    package var landmarkID: Int
    package var landmarkName: String
    package var fixTime: String?
    package var target: String
    package var status: String
    package var attempts: Int
    package var reason: String?
    package var updatedAt: String

    package static func rows(path: String) throws(DeliveryError) -> [DeliveryLogListing] {
        guard FileManager.default.fileExists(atPath: path) else { throw DeliveryError(.missingInput, "\(path): no such file") }
        do {
            let database = try SQLiteDatabase(path: path)
            try database.execute("PRAGMA busy_timeout = 2000")
            let query = try database.prepare(
                """
                SELECT d.notification_id, n.device, n.landmark_id, n.landmark_name, n.fix_time, d.target, d.status,
                       d.attempts, d.reason, d.updated_at
                FROM deliveries d JOIN notifications n ON n.id = d.notification_id
                ORDER BY d.notification_id, d.target
                """)
            var rows: [DeliveryLogListing] = []
            while try query.step() {
                rows.append(
                    DeliveryLogListing(
                        notificationID: query.int64(0) ?? 0, device: query.string(1) ?? "", landmarkID: Int(query.int64(2) ?? 0),
                        landmarkName: query.string(3) ?? "", fixTime: query.string(4), target: label(query.string(5) ?? ""),
                        status: query.string(6) ?? "", attempts: Int(query.int64(7) ?? 0), reason: query.string(8),
                        updatedAt: query.string(9) ?? ""))
            }
            return rows
        } catch {
            let kind: ErrorKind = error.kind == .io ? .badData : error.kind
            throw DeliveryError(kind, "\(path): \(error.description)")
        }
    }

    /// A stored target as output shows it: `apns …9f8e7d6c`, `webhook https://host/path`.
    static func label(_ target: String) -> String {
        if target.hasPrefix("apns:") { return "apns …" + DeviceToken.tail(String(target.dropFirst(5))) }
        if target.hasPrefix("webhook:") { return "webhook " + WebhookRequest.redacted(String(target.dropFirst(8))) }
        return "unknown"
    }

    /// `#3 "d1" 1001 Turtle Rock (2026-05-01T12:00:02Z) -> apns …9f8e7d6c: retired after 1 try (410 Unregistered) at …`
    package var humanLine: String {
        var line = "#\(notificationID) \(JSONWriter.quoted(device)) \(landmarkID) \(landmarkName)"
        line += " (\(fixTime ?? "untimed")) -> \(target): \(status)"
        line += " after \(attempts) \(attempts == 1 ? "try" : "tries")"
        if let reason { line += " (\(reason))" }
        return TerminalText.safe(line + " at \(updatedAt)")
    }

    package var jsonLine: String {
        var line = "{\"notification\":\(notificationID),\"device\":"
        JSONWriter.appendString(device, to: &line)
        line += ",\"landmark\":{\"id\":\(landmarkID),\"name\":"
        JSONWriter.appendString(landmarkName, to: &line)
        line += "},\"fixTime\":" + (fixTime.map(JSONWriter.quoted) ?? "null")
        line += ",\"target\":" + JSONWriter.quoted(target)
        line += ",\"status\":" + JSONWriter.quoted(status)
        line += ",\"attempts\":\(attempts),\"reason\":" + (reason.map(JSONWriter.quoted) ?? "null")
        line += ",\"updatedAt\":" + JSONWriter.quoted(updatedAt) + "}"
        return line
    }
}
