import CNATS
import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// What JetStream answered to the messages `publish` sent asynchronously, told by libnats's
/// acknowledgement handler on libnats's own thread: how many were answered, and the numbers of
/// those refused (a message's number in the run is in its `Nats-Msg-Id` header, `RUN-NUMBER`)
/// with the last reason. A window of messages is settled when every message of it was
/// answered or handed back unanswered (`js_PublishAsyncGetPendingList`).
final class NATSPublishAcks: Sendable {
    private struct Answers {
        var answered = 0
        var refused: [UInt64] = []
        var reason: String?
    }

    private let answers = Mutex(Answers())

    /// Called by libnats for each message: `failure` nil when JetStream stored it.
    func answered(_ message: OpaquePointer?, failure: jsPubAckErr?) {
        var number: UInt64?
        if failure != nil, let message {
            var value: UnsafePointer<CChar>?
            if NATSLibrary.functions.natsMsgHeader_Get(message, NATSPublisher.idHeader, &value) == NATS_OK, let value {
                number = NATSPublisher.number(ofID: String(cString: value))
            }
        }
        let reason = failure.map { $0.ErrText.map { String(cString: $0) } ?? NATSLibrary.describe($0.Err) }
        answers.withLock {
            $0.answered += 1
            if let number { $0.refused.append(number) }
            if let reason { $0.reason = reason }
        }
    }

    /// A message libnats did not take (it is not sent; it gets no answer of its own).
    func refusedBeforeSending(_ number: UInt64, reason: String) {
        answers.withLock {
            $0.answered += 1
            $0.refused.append(number)
            $0.reason = reason
        }
    }

    /// Waits (at most `seconds`) until `count` answers came since the last `take`, then takes
    /// them: the numbers refused, the last reason, and whether all `count` came.
    func take(waitingFor count: Int, seconds: Double) -> (refused: [UInt64], reason: String?, complete: Bool) {
        let deadline = DispatchTime.now() + seconds
        while answers.withLock({ $0.answered }) < count && DispatchTime.now() < deadline { usleep(1000) }
        return answers.withLock { state in
            defer { state = Answers() }
            return (state.refused, state.reason, state.answered >= count)
        }
    }
}
