/// Where an MQTT connection is, with the only moves it may make:
///
///     starting --> connecting --> connected --> stopping --> stopped
///        |             |   ^          |
///        v             v   |          v
///        +-------> retrying <---------+        (any state but stopped --> stopped)
///
/// `retrying` holds why the broker cannot be used (refused, unreachable, lost) until the next
/// attempt, made after a backoff. A move out of turn is a programming error: it stops the
/// process with both states named (as `PipelineStage` does).
package enum MQTTConnectionState: Sendable, Equatable {
    /// Made; nothing tried yet.
    case starting
    /// The connection is open and CONNECT sent; the broker has not answered yet.
    case connecting
    /// The broker accepted CONNECT: messages flow.
    case connected
    /// Not connected, for `reason`; the next attempt comes after a backoff.
    case retrying(reason: String)
    /// DISCONNECT is being sent (the server is stopping).
    case stopping
    /// Closed for good.
    case stopped

    static func allowed(from: MQTTConnectionState, to: MQTTConnectionState) -> Bool {
        switch (from, to) {
        case (.stopped, _): false
        case (_, .stopped): true
        case (.starting, .connecting), (.starting, .retrying): true
        case (.connecting, .connected), (.connecting, .retrying), (.connecting, .stopping): true
        case (.connected, .retrying), (.connected, .stopping): true
        case (.retrying, .connecting), (.retrying, .retrying): true
        default: false
        }
    }

    /// Moves to `next`, or stops the process when that move is not allowed.
    mutating func move(to next: MQTTConnectionState) {
        guard MQTTConnectionState.allowed(from: self, to: next) else {
            preconditionFailure("MQTT connection: cannot go from \(self) to \(next)")
        }
        self = next
    }

    /// Why the broker cannot be used now, for /healthz; nil when connected.
    package var problem: String? {
        switch self {
        case .connected: nil
        case .starting, .connecting: "not connected to the MQTT broker yet"
        case .retrying(let reason): "the MQTT broker is unreachable: \(reason)"
        case .stopping, .stopped: "the MQTT connection is closing"
        }
    }
}
