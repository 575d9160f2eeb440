/// Where deliveries are made durable (docs/reference/state.md, docs/reference/delivery.md): the `--state` store's notification log
/// implements it. The seam between the delivery layer and the state store:
///
/// - `record(pending:)` is called on the engine thread for every job before it is queued
///   (a notification is recorded as decided before it is sent);
/// - `record(_:)` is called on the delivery thread as soon as a try ends, so a 200 is marked
///   delivered before the next request goes out and is never sent again after a `kill -9`;
/// - `undelivered()` is asked once at start: the jobs recorded but not final (pending or
///   retrying), sent again with the same `apns-id` and collapse id;
/// - `retiredTokens()` is asked once at start: tokens an earlier run retired;
/// - `deliveredIDs()` is asked once at start: jobs never to send again.
///
/// Implementations are `Sendable` (an SQLite connection behind a `Mutex`, for example).
package protocol DeliveryLedger: Sendable {
    /// Jobs about to be queued, in one transaction.
    func record(pending jobs: [DeliveryJob]) throws(DeliveryError)
    /// Outcomes of tries, in one transaction.
    func record(_ reports: [DeliveryReport]) throws(DeliveryError)
    func undelivered() throws(DeliveryError) -> [DeliveryJob]
    func retiredTokens() throws(DeliveryError) -> Set<String>
    /// Ids of the jobs an earlier run delivered: decided again, they are not sent again.
    func deliveredIDs() throws(DeliveryError) -> Set<String>
}
