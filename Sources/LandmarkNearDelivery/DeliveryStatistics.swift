/// Delivery counts for the summary line: `deliveries: 12 delivered, 3 retried, 1 failed, 2 retired`.
package struct DeliveryStatistics: Sendable, Equatable {
    /// Jobs that got a 200 (webhooks: 2xx).
    package var delivered = 0
    /// Tries that were followed by another (each temporary failure counts once).
    package var retried = 0
    /// Jobs given up: a permanent error or expired while retrying.
    package var failed = 0
    /// Tokens retired (410, 400 BadDeviceToken / DeviceTokenNotForTopic).
    package var retired = 0
    /// Jobs not sent because their token had been retired before.
    package var skipped = 0
    /// Jobs still outstanding when the run stopped waiting (a signal).
    package var abandoned = 0

    package init() {}

    package var summary: String {
        var text = "deliveries: \(delivered) delivered, \(retried) retried, \(failed) failed, \(retired) retired"
        if skipped > 0 { text += ", \(skipped) skipped (retired token)" }
        if abandoned > 0 { text += ", \(abandoned) left undelivered" }
        return text
    }
}
