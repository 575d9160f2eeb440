/// What happened to one try of a `DeliveryJob`, as the delivery thread reports it and the
/// delivery log (`--state`) records it.
package enum DeliveryOutcome: Sendable, Hashable {
    /// APNs answered 200 (a webhook 2xx).
    case delivered
    /// A temporary failure (429, 500, 503, a connection error): tried again after `delay`
    /// seconds; `attempt` tries so far.
    case retrying(attempt: Int, delay: Double, reason: String)
    /// Given up: a permanent answer, or the expiration passed while retrying.
    case failed(reason: String)
    /// 410 Unregistered, 400 BadDeviceToken / DeviceTokenNotForTopic: the token is never used again.
    case retired(reason: String)
    /// Not sent: its token had been retired (by an earlier answer, in this run or before).
    /// The delivery log stores it as `retired` (its reason says it was not sent), a status
    /// that every state file's schema allows.
    case skipped(reason: String)

    /// The status word the delivery log stores: pending, delivered, retrying, failed, retired.
    package var status: String {
        switch self {
        case .delivered: return "delivered"
        case .retrying: return "retrying"
        case .failed: return "failed"
        case .retired: return "retired"
        case .skipped: return "retired"
        }
    }

    /// True when nothing more will be tried for the job.
    package var isFinal: Bool {
        if case .retrying = self { return false }
        return true
    }
}

/// One outcome of one job, with the HTTP status it came from (nil for connection errors).
package struct DeliveryReport: Sendable, Hashable {
    package var job: DeliveryJob
    package var outcome: DeliveryOutcome
    package var httpStatus: Int?
    /// Tries made so far, this one included.
    package var attempts: Int
}
