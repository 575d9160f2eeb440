/// Where the connection of `serve --nats` to its cluster is, with the only moves it may make:
///
///     connecting --> connected <--> disconnected
///          |                            ^
///          +----------------------------+          (any state --> closed)
///
/// libnats reports the moves from its own threads (connected, disconnected, reconnected); one
/// that does not fit (a late callback after `closed`) is not taken, and says so by returning
/// false, so the status never shows a state the connection left.
package enum NATSLinkState: Sendable, Equatable {
    /// Trying the servers (at start, until one answers).
    case connecting
    /// Connected to `url` (the password left out).
    case connected(url: String)
    /// Lost; libnats tries the servers again, with a backoff.
    case disconnected
    /// Closed for good (the server is stopping).
    case closed

    static func allowed(from: NATSLinkState, to: NATSLinkState) -> Bool {
        switch (from, to) {
        case (.closed, _): false
        case (_, .closed): true
        case (.connecting, .connected), (.connecting, .disconnected): true
        case (.connected, .disconnected), (.disconnected, .connected): true
        default: false
        }
    }

    /// Moves to `next` when that move is allowed; false (and no move) otherwise.
    mutating func move(to next: NATSLinkState) -> Bool {
        guard NATSLinkState.allowed(from: self, to: next) else { return false }
        self = next
        return true
    }

    /// Why the cluster cannot be used now, for /healthz; nil when connected.
    var problem: String? {
        switch self {
        case .connected: nil
        case .connecting: "not connected to the NATS servers yet"
        case .disconnected: "the NATS servers are unreachable (retrying)"
        case .closed: "the NATS connection is closed"
        }
    }
}
