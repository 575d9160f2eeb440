import LandmarkNear

#if canImport(Glibc)
import Glibc
#endif

/// How `fixes` behaves on a live stream, as `watch` does (docs/reference/output.md, live
/// operation): whenever the input pauses, what was printed is flushed, so a consumer downstream
/// (Scripts/spark-watch.py, a publisher) sees each fix as it comes; SIGINT or SIGTERM stops
/// the reading at a record boundary, and the command still prints its summary. `publish` flushes
/// its window of messages to JetStream the same way.
final class LiveOutputPause: InputPauseHandler {
    private let flush: () throws -> Void
    private let signals: SignalInbox
    /// The signal that stopped the reading, if one did.
    private(set) var stoppedBy: Int32?
    /// stdout's reader went away: reading stops, and the command ends quietly.
    private(set) var outputClosed = false

    convenience init(output: OutputWriter, signals: SignalInbox) {
        self.init(signals: signals) { try output.flush() }
    }

    /// `flush` sends what waits; when it throws, reading stops (`outputClosed`).
    init(signals: SignalInbox, flush: @escaping () throws -> Void) {
        self.flush = flush
        self.signals = signals
    }

    var wakeDescriptor: Int32 { signals.descriptor }

    func inputWillPause() -> Bool {
        do {
            try flush()
            return true
        } catch {
            outputClosed = true
            return false
        }
    }

    func wakeDescriptorIsReadable() -> Bool {
        while let number = signals.take() {
            if number == SIGINT || number == SIGTERM {
                stoppedBy = number
                return false
            }
        }
        return true
    }
}
