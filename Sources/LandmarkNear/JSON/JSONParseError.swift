/// Why a JSON text could not be read, with the byte offset where reading stopped.
struct JSONParseError: LandmarkNearError, Sendable, Equatable {
    var reason: String
    var offset: Int

    init(_ reason: String, at offset: Int) {
        self.reason = reason
        self.offset = offset
    }

    var kind: ErrorKind { .badData }

    var description: String { "invalid JSON at byte \(offset): \(reason)" }
}
