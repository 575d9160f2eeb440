#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Synchronization

/// Notices SIGINT and SIGTERM while it lives (instead of dying of them), for the phases that
/// must end cleanly: the wait for outstanding deliveries at the end of `watch`.
///
///     let signals = SignalWatch()
///     delivery.finish(shouldStop: { signals.received != nil })
final class SignalWatch {
    private final class Received: Sendable {
        let number = Atomic<Int32>(0)
    }

    private let flag = Received()
    private var sources: [any DispatchSourceSignal] = []
    private let numbers: [Int32]

    init(_ numbers: [Int32] = [SIGINT, SIGTERM]) {
        self.numbers = numbers
        for number in numbers {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            let flag = self.flag
            source.setEventHandler { flag.number.store(number, ordering: .relaxed) }
            source.resume()
            sources.append(source)
        }
    }

    deinit {
        for source in sources { source.cancel() }
        for number in numbers { signal(number, SIG_DFL) }
    }

    /// The signal that came, if one did.
    var received: Int32? {
        let number = flag.number.load(ordering: .relaxed)
        return number == 0 ? nil : number
    }
}
