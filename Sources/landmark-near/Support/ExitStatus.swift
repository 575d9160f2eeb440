import LandmarkNear

/// Process exit statuses, following sysexits(3).
enum ExitStatus: Int32 {
    case success = 0
    case usage = 64
    case dataError = 65
    case noInput = 66
    case unavailable = 69
    case ioError = 74
    case temporaryFailure = 75
    /// Stopped by SIGINT (128 + 2) or SIGTERM (128 + 15), as shells report it.
    case interrupted = 130
    case terminated = 143

    /// The one mapping from what went wrong to the exit status: nil is success.
    init(_ kind: ErrorKind?) {
        switch kind {
        case nil: self = .success
        case .usage?: self = .usage
        case .badData?: self = .dataError
        case .missingInput?: self = .noInput
        case .io?: self = .ioError
        case .unavailable?: self = .unavailable
        case .temporaryFailure?: self = .temporaryFailure
        case .interrupted?: self = .interrupted
        case .terminated?: self = .terminated
        }
    }
}

/// An error that ends the command: its kind (hence the exit status) and the message on stderr.
struct CommandFailure: Error {
    var kind: ErrorKind
    var message: String

    init(_ kind: ErrorKind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// A library error, after the context the command adds (`"landmark-near watch: --profiles "`).
    init(_ error: some LandmarkNearError, context: String) {
        self.init(error.kind, context + error.description)
    }

    static func usage(_ message: String) -> CommandFailure { CommandFailure(.usage, message) }
}
