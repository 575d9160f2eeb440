/// Where a pipeline's event lines go besides stdout, after each commit: `serve --mqtt-publish`.
///
/// With `--state`, a notification published is marked done only once the far end acknowledged
/// it (`takeAcknowledged`), so one it never got is emitted again by the next run (at least
/// once, as every output of a run with state is: docs/reference/state.md).
///
///     pipeline.eventPublisher = publisher   // before resume()
package protocol EventLinePublisher: AnyObject {
    /// Publishes `line`, an event of `device`; `notificationID` is the notification's log id
    /// (with `--state`), to be reported by `takeAcknowledged` once the far end has the line.
    func publish(line: String, device: String, notificationID: Int64?)
    /// The notifications acknowledged since the last call.
    func takeAcknowledged() -> [Int64]
    /// Notifications published and not yet acknowledged.
    var unacknowledgedNotifications: Int { get }
    /// Notifications acknowledged and not yet taken (`takeAcknowledged`).
    var acknowledgedWaiting: Int { get }
}
