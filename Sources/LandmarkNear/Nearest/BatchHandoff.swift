import Dispatch
import Synchronization

/// Batches handed from one thread to the next in order, at most `capacity` waiting: the
/// stages of a `nearest` stream (reading, the index, writing) each on a thread of its own.
///
///     let handoff = BatchHandoff<[Int]>(capacity: 4)
///     _ = handoff.put([1, 2, 3])     // waits for a place; false once the taker closed it
///     handoff.take()                  // [1, 2, 3], waiting for it
///     handoff.close()                 // the taker stops: later puts are refused, none waits
final class BatchHandoff<Batch: Sendable>: Sendable {
    private struct State {
        var batches: [Batch] = []
        var isClosed = false
    }

    private let state = Mutex(State())
    /// Batches waiting to be taken.
    private let filled = DispatchSemaphore(value: 0)
    /// Places for batches not yet put.
    private let free: DispatchSemaphore

    init(capacity: Int) {
        free = DispatchSemaphore(value: capacity)
    }

    deinit {
        // libdispatch traps when a semaphore goes away below its initial value.
        for _ in 0..<state.withLock({ $0.batches.count }) { free.signal() }
    }

    /// Hands `batch` over, waiting for a place; false (the batch dropped) once closed.
    func put(_ batch: Batch) -> Bool {
        free.wait()
        let accepted = state.withLock { state in
            guard !state.isClosed else { return false }
            state.batches.append(batch)
            return true
        }
        if accepted { filled.signal() } else { free.signal() }
        return accepted
    }

    /// The next batch, waiting for it. Not after `close()`.
    func take() -> Batch {
        filled.wait()
        let batch = state.withLock { $0.batches.removeFirst() }
        free.signal()
        return batch
    }

    /// Whether no batch is waiting now.
    var isEmpty: Bool { state.withLock { $0.batches.isEmpty } }

    /// The taker stops taking: the waiting batches are dropped and every later `put` (one
    /// waiting for a place too) is refused. It never waits.
    func close() {
        let dropped = state.withLock { state in
            state.isClosed = true
            defer { state.batches.removeAll() }
            return state.batches.count
        }
        // Their places free a put that waits for one: it sees the handoff closed and gives
        // its place back.
        for _ in 0..<dropped {
            filled.wait()
            free.signal()
        }
    }
}
