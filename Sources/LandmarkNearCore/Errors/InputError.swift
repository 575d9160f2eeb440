import Glibc

/// An input that cannot be read at all: it cannot be opened (`.missingInput`: no such file, a
/// directory, no permission), reading it failed (`.io`), or it is larger than its reader
/// accepts (`.badData`). Unreadable records inside an input are not errors of this kind; fix
/// readers return them as `FixRecord.invalid`.
///
///     do { _ = try FixReader(input: .file("nope.gpx"), format: nil) }
///     catch { error.kind }   // .missingInput; "nope.gpx: no such file"
public struct InputError: LandmarkNearError, Sendable, Equatable {
    /// The file path as given, or `<stdin>`.
    public var source: String
    public var reason: String
    public var kind: ErrorKind
    /// Reading stopped because an `InputPauseHandler` said so (a signal, a closed output):
    /// not a fault of the input.
    package var isInterrupted = false

    package init(source: String, reason: String, kind: ErrorKind) {
        self.source = source
        self.reason = reason
        self.kind = kind
    }

    static func interrupted(source: String) -> InputError {
        var error = InputError(source: source, reason: "reading stopped", kind: .temporaryFailure)
        error.isInterrupted = true
        return error
    }

    /// `<source>: <reason>`, the path made safe for a terminal (it may hold anything).
    public var description: String { "\(TerminalText.safe(source)): \(reason)" }

    /// An error for a failed system call, from `errno`: opening fails as `.missingInput`,
    /// anything else as `.io`.
    static func system(_ operation: String, source: String, errno code: Int32) -> InputError {
        if operation == "open" {
            if code == ENOENT || code == ENOTDIR { return InputError(source: source, reason: "no such file", kind: .missingInput) }
            if code == EISDIR { return InputError(source: source, reason: "is a directory", kind: .missingInput) }
            return InputError(source: source, reason: "cannot be opened: " + String(cString: strerror(code)), kind: .missingInput)
        }
        return InputError(source: source, reason: "cannot \(operation): " + String(cString: strerror(code)), kind: .io)
    }
}

/// The fix readers' name for `InputError` (the readers in flight on other branches use it).
typealias FixInputError = InputError
