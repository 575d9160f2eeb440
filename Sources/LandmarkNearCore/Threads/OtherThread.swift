import Dispatch
import Synchronization

/// A value computed on a worker thread of Dispatch's global queue while the calling thread
/// goes on, waited for once: how a load uses a second core (the two halves of a catalog's
/// scan, the index's tables).
///
/// Only Sendable values cross: the work is a `@Sendable` closure and its value is Sendable
/// (arrays, not the index's tables in memory of their own, which the calling thread makes from
/// them).
///
///     let half = OtherThread { heavyWork(on: secondHalf) }
///     let mine = heavyWork(on: firstHalf)
///     let theirs = half.value()
package final class OtherThread<Value: Sendable>: Sendable {
    private let result = Mutex<Value?>(nil)
    private let done = DispatchSemaphore(value: 0)

    package init(_ work: @escaping @Sendable () -> Value) {
        DispatchQueue.global().async { [self] in
            let value = work()
            result.withLock { $0 = value }
            done.signal()
        }
    }

    /// The value, taken out (this holds no copy of it afterwards: the caller's is unique).
    /// Called once.
    package func value() -> Value {
        done.wait()
        return result.withLock { $0.take()! }
    }
}
