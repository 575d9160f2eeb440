@_spi(Inlining) import LandmarkNearCore

/// A payload that cannot be built within the APNs size limit.
public struct PayloadError: LandmarkNearError, Sendable, Equatable {
    /// Bytes the payload needs even with the landmark name shortened to "…".
    public var minimumBytes: Int

    package init(minimumBytes: Int) {
        self.minimumBytes = minimumBytes
    }

    /// `.usage`: the options asked for (thread and bundle ids) leave no room.
    public var kind: ErrorKind { .usage }

    public var description: String {
        "the payload needs \(minimumBytes) bytes even with the landmark name shortened to \"…\", "
            + "more than the \(APNsPayload.maximumBytes) APNs allows: use a shorter thread id or bundle id"
    }
}
