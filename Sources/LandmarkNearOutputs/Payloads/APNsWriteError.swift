@_spi(Inlining) import LandmarkNearCore

/// An `.apns` file or its directory that could not be written.
package struct APNsWriteError: LandmarkNearError, Sendable, Equatable {
    package var path: String
    package var reason: String

    package init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    package var kind: ErrorKind { .io }

    package var description: String { "\(path): \(reason)" }
}
