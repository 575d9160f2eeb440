import LandmarkNear

#if canImport(Glibc)
import Glibc
#endif

/// How `fixes` behaves on a live stream, as `watch` does (docs/reference/output.md, live
/// operation): whenever the input pauses, what was printed is flushed, so a consumer downstream
/// (Scripts/spark-watch.py, a publisher) sees each fix as it comes; SIGINT or SIGTERM stops
/// the reading at a record boundary, and the command still prints its summary.
final class LiveOutputPause: InputPauseHandler {
    private let output: OutputWriter
    private let signals: SignalInbox
    /// The signal that stopped the reading, if one did.
    private(set) var stoppedBy: Int32?
    /// stdout's reader went away: reading stops, and the command ends quietly.
    private(set) var outputClosed = false

    init(output: OutputWriter, signals: SignalInbox) {
        self.output = output
        self.signals = signals
    }

    var wakeDescriptor: Int32 { signals.descriptor }

    func inputWillPause() -> Bool {
        do {
            try output.flush()
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
