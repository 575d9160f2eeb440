import CLinux
@_spi(Inlining) import LandmarkNearCore

#if canImport(Glibc)
import Glibc
#endif

/// Signals as data: the signals given are blocked for the process and queued on a
/// `signalfd(2)` descriptor, which a reader polls together with its input, so SIGINT on a
/// silent pipe wakes it and the session stops at a record boundary. No handler runs and no
/// global state is touched. Create it before any thread starts (threads inherit the mask).
///
///     let signals = try SignalInbox(signals: [SIGINT, SIGTERM, SIGHUP])
///     // poll signals.descriptor with the input; when readable:
///     while let signal = signals.take() { ... }
public final class SignalInbox {
    package let descriptor: Int32
    private var mask = sigset_t()

    public init(signals: [Int32]) throws(InputError) {
        sigemptyset(&mask)
        for signal in signals { sigaddset(&mask, signal) }
        let code = pthread_sigmask(SIG_BLOCK, &mask, nil)
        guard code == 0 else {
            throw InputError(source: "signals", reason: "cannot be blocked: \(String(cString: strerror(code)))", kind: .io)
        }
        let descriptor = signalfd(-1, &mask, Int32(SFD_NONBLOCK | SFD_CLOEXEC))
        guard descriptor >= 0 else {
            throw InputError(source: "signals", reason: "signalfd failed: \(String(cString: strerror(errno)))", kind: .io)
        }
        self.descriptor = descriptor
    }

    deinit {
        // Signals still queued were seen too late to act on: drop them rather than let them
        // strike (with their default action) once unblocked.
        while take() != nil {}
        close(descriptor)
        pthread_sigmask(SIG_UNBLOCK, &mask, nil)
    }

    /// The next pending signal's number, or nil when none is pending.
    package func take() -> Int32? {
        var info = signalfd_siginfo()
        let size = MemoryLayout<signalfd_siginfo>.size
        while true {
            let count = read(descriptor, &info, size)
            if count == size { return Int32(bitPattern: info.ssi_signo) }
            if count < 0 && errno == EINTR { continue }
            return nil
        }
    }
}
