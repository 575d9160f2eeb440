import LandmarkNearCore

/// An `.apns` file or its directory that could not be written.
public struct APNsWriteError: LandmarkNearError, Sendable, Equatable {
    public var path: String
    public var reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var kind: ErrorKind { .io }

    public var description: String { "\(path): \(reason)" }
}
