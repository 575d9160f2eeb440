import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The bounded hand-over between the engine thread (which adds jobs) and the delivery thread
/// (which sends them). `capacity` jobs may be outstanding (queued, in flight or waiting for a
/// retry); `add` blocks while that many are. A pipe wakes the delivery thread out of its poll
/// on libcurl's sockets when jobs arrive or the queue closes.
final class DeliveryQueue: Sendable {
    private struct State {
        var waiting: [DeliveryJob] = []
        var closed = false
        var stopRequested = false
        var statistics = DeliveryStatistics()
        /// Places taken from `slots` and not given back.
        var outstanding = 0
    }

    private let state = Mutex(State())
    /// Free places; a job takes one when added and gives it back when final.
    private let slots: DispatchSemaphore
    /// Signalled once, when the delivery thread has ended.
    private let ended = DispatchSemaphore(value: 0)
    let wake: WakePipe

    init(capacity: Int) throws(DeliveryError) {
        slots = DispatchSemaphore(value: max(1, capacity))
        wake = try WakePipe()
    }

    /// Adds a job, waiting while the queue is full. Returns false when a stop was requested.
    @discardableResult
    func add(_ job: DeliveryJob) -> Bool {
        while slots.wait(timeout: .now() + .milliseconds(200)) == .timedOut {
            if state.withLock({ $0.stopRequested }) { return false }
        }
        state.withLock {
            $0.waiting.append(job)
            $0.outstanding += 1
        }
        wake.signal()
        return true
    }

    deinit {
        // libdispatch traps when a semaphore goes away below its initial value: give back the
        // places of jobs abandoned by a stop.
        for _ in 0..<state.withLock({ $0.outstanding }) { slots.signal() }
    }

    /// The delivery thread takes what was added; `closed` once the engine has added the last job.
    func take() -> (jobs: [DeliveryJob], closed: Bool, stop: Bool) {
        state.withLock { state in
            defer { state.waiting.removeAll(keepingCapacity: true) }
            return (state.waiting, state.closed, state.stopRequested)
        }
    }

    /// A job is final (delivered, failed, retired, skipped): its place is free again.
    func finished() {
        state.withLock { $0.outstanding -= 1 }
        slots.signal()
    }

    func update(_ change: (inout DeliveryStatistics) -> Void) {
        state.withLock { change(&$0.statistics) }
    }

    var statistics: DeliveryStatistics { state.withLock { $0.statistics } }

    /// No more jobs will come: the delivery thread ends once the outstanding ones are final.
    func close() {
        state.withLock { $0.closed = true }
        wake.signal()
    }

    /// Stop now (SIGINT/SIGTERM while waiting): the delivery thread ends after the requests in flight.
    func requestStop() {
        state.withLock { $0.stopRequested = true }
        wake.signal()
    }

    func markEnded() { ended.signal() }

    /// Waits up to `seconds` for the delivery thread to end.
    func waitForEnd(seconds: Double) -> Bool {
        ended.wait(timeout: .now() + .milliseconds(Int(seconds * 1000))) == .success
    }
}

/// A pipe whose read end a network thread polls beside its sockets (the delivery thread
/// beside libcurl's, an MQTT connection beside its broker's): a byte written
/// to it ends the poll at once. One owner for both descriptors.
package final class WakePipe: Sendable {
    package let readDescriptor: Int32
    package let writeDescriptor: Int32

    package init() throws(DeliveryError) {
        var descriptors: [Int32] = [0, 0]
        guard pipe(&descriptors) == 0 else {
            throw DeliveryError(.io, "cannot create a pipe: \(String(cString: strerror(errno)))")
        }
        readDescriptor = descriptors[0]
        writeDescriptor = descriptors[1]
        for descriptor in descriptors {
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        }
    }

    deinit {
        close(readDescriptor)
        close(writeDescriptor)
    }

    /// A full pipe already wakes the reader, so a failed write is fine.
    package func signal() {
        var byte: UInt8 = 1
        _ = write(writeDescriptor, &byte, 1)
    }

    package func drain() {
        var buffer = [UInt8](repeating: 0, count: 256)
        while read(readDescriptor, &buffer, buffer.count) > 0 {}
    }
}
