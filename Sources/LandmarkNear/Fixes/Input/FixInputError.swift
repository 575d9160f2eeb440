import Glibc

/// An input that cannot be read at all: a missing file (sysexits 66) or an I/O error (74).
/// Unreadable records are not errors of this kind; they come as `FixRecord.invalid`.
///
///     do { _ = try FixReader(input: .file("nope.gpx"), format: nil) }
///     catch { error.isMissingFile }   // true; "nope.gpx: no such file"
public struct FixInputError: Error, Sendable, Equatable, CustomStringConvertible {
    public var source: String
    public var reason: String
    /// True when the input file does not exist (exit status 66); false for other I/O errors (74).
    public var isMissingFile: Bool
    /// True when an `InputPauseHandler` asked the reader to stop (not an error of the input).
    public var isInterrupted = false

    public init(source: String, reason: String, isMissingFile: Bool = false) {
        self.source = source
        self.reason = reason
        self.isMissingFile = isMissingFile
    }

    /// Reading stopped because the pause handler said so (a signal, a closed output).
    static func interrupted(source: String) -> FixInputError {
        var error = FixInputError(source: source, reason: "reading stopped")
        error.isInterrupted = true
        return error
    }

    /// `<source>: <reason>`
    public var description: String { "\(source): \(reason)" }

    /// An error for a failed system call, from `errno`.
    static func system(_ operation: String, source: String, errno code: Int32) -> FixInputError {
        let message = String(cString: strerror(code))
        if code == ENOENT {
            return FixInputError(source: source, reason: "no such file", isMissingFile: true)
        }
        return FixInputError(source: source, reason: "cannot \(operation): \(message)")
    }
}
