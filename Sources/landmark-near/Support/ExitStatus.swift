/// Process exit statuses, following sysexits(3).
enum ExitStatus: Int32 {
    case success = 0
    case usage = 64
    case dataError = 65
    case noInput = 66
    case software = 70
    case ioError = 74
    /// Stopped by SIGINT (128 + 2).
    case interrupted = 130
    /// Stopped by SIGTERM (128 + 15).
    case terminated = 143
}

/// An error that ends the command with a message on stderr and an exit status.
struct CommandFailure: Error {
    var status: ExitStatus
    var message: String

    static func usage(_ message: String) -> CommandFailure { CommandFailure(status: .usage, message: message) }
}
