import Dispatch
@_spi(Inlining) import LandmarkNearCore
import LandmarkNearDelivery
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// What other threads may do to an MQTT connection's network thread: wake its poll, ask it to
/// stop (it finishes what it holds, sends DISCONNECT and ends) or to give up (it closes the
/// socket at once, acknowledging nothing more), and wait for it to end.
final class MQTTLinkControl: Sendable {
    let wake: WakePipe
    private let stopping = Atomic<Bool>(false)
    private let abandoned = Atomic<Bool>(false)
    private let ended = DispatchSemaphore(value: 0)

    init() throws(ServerError) {
        do {
            wake = try WakePipe()
        } catch {
            throw .io(error.description, .mqtt)
        }
    }

    /// Finish and disconnect.
    func requestStop() {
        stopping.store(true, ordering: .releasing)
        wake.signal()
    }

    /// Close without acknowledging anything more: the engine will not commit what it was given
    /// (it stopped), so the broker must send it again to the next run.
    func abandon() {
        abandoned.store(true, ordering: .releasing)
        requestStop()
    }

    var stopRequested: Bool { stopping.load(ordering: .acquiring) }
    var isAbandoned: Bool { abandoned.load(ordering: .acquiring) }

    /// Sleeps until `deadline` (monotonic seconds) or a stop request; false on a stop request.
    func sleep(until deadline: Double) -> Bool {
        while !stopRequested {
            let left = deadline - DeliveryClock.monotonicSeconds()
            if left <= 0 { return true }
            var descriptor = pollfd(fd: wake.readDescriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&descriptor, 1, Int32(min(left, 1) * 1000) + 1)
            wake.drain()
        }
        return false
    }

    func markEnded() { ended.signal() }

    /// Waits for the network thread to end.
    func waitForEnd() {
        ended.wait()
        ended.signal()
    }
}
