import Dispatch
import Synchronization

/// Batches handed from one thread to another in order, at most `capacity` waiting: the
/// reading thread of a `nearest` stream and its writing thread (`NearestAnswerOutput`).
///
///     let handoff = BatchHandoff<[Int]>(capacity: 4)
///     handoff.put([1, 2, 3])     // waits for a place
///     handoff.take()             // [1, 2, 3], waiting for it
package final class BatchHandoff<Batch: Sendable>: Sendable {
    private let batches = Mutex<[Batch]>([])
    /// Batches waiting to be taken.
    private let filled = DispatchSemaphore(value: 0)
    /// Places for batches not yet put.
    private let free: DispatchSemaphore

    package init(capacity: Int) {
        free = DispatchSemaphore(value: capacity)
    }

    deinit {
        // libdispatch traps when a semaphore goes away below its initial value.
        for _ in 0..<batches.withLock({ $0.count }) { free.signal() }
    }

    /// Hands `batch` over, waiting for a place.
    package func put(_ batch: Batch) {
        free.wait()
        batches.withLock { $0.append(batch) }
        filled.signal()
    }

    /// The next batch, waiting for it.
    package func take() -> Batch {
        filled.wait()
        let batch = batches.withLock { $0.removeFirst() }
        free.signal()
        return batch
    }

    /// Whether no batch is waiting now.
    package var isEmpty: Bool { batches.withLock { $0.isEmpty } }
}
