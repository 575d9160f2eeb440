/// Why a JSON text could not be read, with the byte offset where reading stopped.
public struct JSONParseError: LandmarkNearError, Sendable, Equatable {
    public var reason: String
    public var offset: Int

    public init(_ reason: String, at offset: Int) {
        self.reason = reason
        self.offset = offset
    }

    public var kind: ErrorKind { .badData }

    public var description: String { "invalid JSON at byte \(offset): \(reason)" }
}
