import LandmarkNear

#if canImport(Glibc)
import Glibc
#endif

/// stderr for the commands (stdout goes through `OutputWriter`).
enum Console {
    /// Writes `message` and a newline to stderr with write(2), dropping it when stderr is closed
    /// or full (`FileHandle.write` traps there: `nearest 95 0 2>&-` died of SIGILL). Each line
    /// goes through `TerminalText.safe` whatever the caller did: no message can carry an escape
    /// sequence or a bidirectional control to the terminal.
    static func error(_ message: String) {
        var bytes = Array(TerminalText.safeLines(message).utf8)
        bytes.append(0x0A)
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = write(2, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return
                }
                offset += written
            }
        }
    }
}
