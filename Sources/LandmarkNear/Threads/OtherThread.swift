import Dispatch
import Synchronization

/// A value computed on a worker thread of Dispatch's global queue while the calling thread
/// goes on, waited for once: how a load uses a second core (the two halves of a catalog's
/// scan, the index's tables and its directory).
///
/// The work sees only Sendable values (it is a `@Sendable` closure); its result may be of any
/// type, since it is `sending`: made on the worker and handed over whole, nothing of it is
/// left there (the index's directory, a class over memory of its own, crosses this way).
///
///     let half = OtherThread { heavyWork(on: secondHalf) }
///     let mine = heavyWork(on: firstHalf)
///     let theirs = half.value()
final class OtherThread<Value>: Sendable {
    private let result = Mutex<Value?>(nil)
    private let done = DispatchSemaphore(value: 0)

    init(_ work: @escaping @Sendable () -> sending Value) {
        DispatchQueue.global().async { [self] in
            // Made inside the lock's closure, so that it is handed over whole (`sending`).
            result.withLock { $0 = work() }
            done.signal()
        }
    }

    /// The value, taken out (this holds no copy of it afterwards: the caller's is unique).
    /// Called once.
    func value() -> sending Value {
        done.wait()
        return result.withLock { $0.take()! }
    }
}
