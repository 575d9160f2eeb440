@_spi(Inlining) import LandmarkNearCore
import LandmarkNearOutputs
import LandmarkNearServer

/// Why a watch session cannot start, or stopped early: its kind, where it happened (so that
/// the tool can name the option involved), and what happened.
///
///     do { try session.run(inputs: [.file("nope.gpx")]) }
///     catch { (error.kind, error.origin) }   // (.missingInput, .input); "nope.gpx: no such file"
public struct WatchError: LandmarkNearError, Sendable {
    public enum Origin: Sendable, Equatable {
        /// The favourites: a default or profile favourite the catalog lacks.
        case favorites
        /// The `.apns` directory cannot be created, or a file in it written.
        case apnsDirectory
        /// An input cannot be opened or read.
        case input
        /// Writing the event lines failed.
        case output
        /// Strict reading stopped at this unreadable record.
        case record(FixReadIssue)
        /// Deliveries cannot start (`--push apns`, `--webhook`: the key, the CA, libcurl).
        case delivery
        /// The `--state` database cannot be opened, read or written (`.temporaryFailure`: another
        /// process holds it).
        case state
        /// stdout's reader went away (`| head -1`): not a failure, the run just ends there.
        case closedOutput
    }

    public var kind: ErrorKind
    public var origin: Origin
    /// What happened, naming the file (and line) concerned.
    public var message: String

    package init(kind: ErrorKind, origin: Origin, message: String) {
        self.kind = kind
        self.origin = origin
        self.message = message
    }

    public var description: String { message }

    /// The session's error for a state database failure.
    init(_ error: StateError) {
        self.init(kind: error.kind, origin: .state, message: error.description)
    }

    static let closedOutput = WatchError(kind: .io, origin: .closedOutput, message: "stdout was closed")

    var isClosedOutput: Bool { origin == .closedOutput }
}
