/// Why a JSON text could not be read, with the byte offset where reading stopped.
package struct JSONParseError: LandmarkNearError, Sendable, Equatable {
    package var reason: String
    package var offset: Int

    init(_ reason: String, at offset: Int) {
        self.reason = reason
        self.offset = offset
    }

    package var kind: ErrorKind { .badData }

    package var description: String { "invalid JSON at byte \(offset): \(reason)" }
}
