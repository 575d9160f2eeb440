/// A `--state` database that cannot be used.
///
///     do { _ = try StateStore(path: "state.db") }
///     catch { error.kind == .locked }   // another process holds it: exit 75
public struct StateError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// Another process has the file open (sysexits 75, temporary failure).
        case locked
        /// The file is not a LandmarkNear state database, or is damaged (65).
        case badData
        /// Reading or writing failed (74).
        case io
    }

    public var kind: Kind
    public var path: String
    public var reason: String

    public init(_ kind: Kind, path: String, reason: String) {
        self.kind = kind
        self.path = path
        self.reason = reason
    }

    /// `<path>: <reason>`
    public var description: String { "\(path): \(reason)" }
}
