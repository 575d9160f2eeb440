import Dispatch
import Synchronization

/// One batch of received fixes handed to the engine, and the engine's answer once the batch
/// is committed: the MQTT network thread waits for it before it lets the batch's PUBACKs go, a
/// NATS partition's thread before it acknowledges the batch's messages.
final class CommitWaiter: Sendable {
    private let answer = Mutex<EngineAnswer?>(nil)
    private let done = DispatchSemaphore(value: 0)

    /// Called by the engine side (any thread), once.
    func finish(_ value: EngineAnswer) {
        answer.withLock { $0 = value }
        done.signal()
    }

    /// The answer; nil when `control` gave up first (the engine stopped without answering).
    func wait(_ control: MQTTLinkControl) -> EngineAnswer? { wait(abandoned: { control.isAbandoned }) }

    /// The answer; nil when `abandoned` (asked every 100 ms) says to give up first.
    func wait(abandoned: () -> Bool) -> EngineAnswer? {
        while done.wait(timeout: .now() + .milliseconds(100)) == .timedOut {
            if abandoned() { return nil }
        }
        return answer.withLock { $0 }
    }
}
