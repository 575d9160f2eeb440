@_spi(Inlining) import LandmarkNearCore

/// A `--state` database that cannot be used: another process holds it (`.temporaryFailure`,
/// exit 75), it is not a LandmarkNear state database or is damaged (`.badData`), or reading or
/// writing it failed (`.io`).
///
///     do { _ = try StateStore(path: "state.db") }
///     catch { error.kind }   // .temporaryFailure: another process holds it
public struct StateError: LandmarkNearError, Sendable, Equatable {
    public var kind: ErrorKind
    public var path: String
    public var reason: String

    package init(_ kind: ErrorKind, path: String, reason: String) {
        self.kind = kind
        self.path = path
        self.reason = reason
    }

    /// `<path>: <reason>`
    public var description: String { "\(path): \(reason)" }
}
