import Synchronization

/// What the MQTT connections of `serve` report to the HTTP side: the subscribing connection's
/// state (GET /healthz answers 503 while the broker cannot be used) and the counters GET
/// /metrics shows. Written by the connections' network threads, read by the HTTP threads.
///
///     status.count(locations: 10, skipped: 2, bad: 1)
///     status.problem   // nil while connected and subscribed
package final class MQTTStatus: Sendable {
    package struct Counts: Sendable, Equatable {
        /// Messages received, by what they were: `_type` location, another type, unreadable.
        package var locations = 0
        package var skipped = 0
        package var bad = 0
        /// Times the subscribing connection was accepted by the broker.
        package var connections = 0
        /// Event lines published (`--mqtt-publish`), acknowledged by the broker, refused by it.
        package var published = 0
        package var acknowledged = 0
        package var refused = 0
    }

    private struct Snapshot {
        var receiver = MQTTConnectionState.starting
        var subscriptionRefused: String?
        var publisher: MQTTConnectionState?
        var counts = Counts()
    }

    private let snapshot = Mutex(Snapshot())

    package init() {}

    package var counts: Counts { snapshot.withLock { $0.counts } }

    /// Why the broker cannot be used now (/healthz's 503), or nil.
    package var problem: String? {
        snapshot.withLock { state in
            if let refused = state.subscriptionRefused { return "the MQTT broker refused the subscription: \(refused)" }
            return state.receiver.problem
        }
    }

    /// Whether the subscribing connection is up (the `landmark_near_mqtt_connected` gauge).
    package var isConnected: Bool { snapshot.withLock { $0.receiver == .connected && $0.subscriptionRefused == nil } }

    func receiverMoved(to state: MQTTConnectionState) {
        snapshot.withLock { snapshot in
            if state == .connected {
                snapshot.counts.connections += 1
                snapshot.subscriptionRefused = nil
            }
            snapshot.receiver = state
        }
    }

    func subscriptionRefused(_ reason: String) { snapshot.withLock { $0.subscriptionRefused = reason } }

    func publisherMoved(to state: MQTTConnectionState) { snapshot.withLock { $0.publisher = state } }

    func count(locations: Int, skipped: Int, bad: Int) {
        snapshot.withLock {
            $0.counts.locations += locations
            $0.counts.skipped += skipped
            $0.counts.bad += bad
        }
    }

    func countPublished(_ published: Int = 0, acknowledged: Int = 0, refused: Int = 0) {
        snapshot.withLock {
            $0.counts.published += published
            $0.counts.acknowledged += acknowledged
            $0.counts.refused += refused
        }
    }
}
