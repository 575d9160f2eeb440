import Synchronization

/// What the NATS side of `serve` reports to the HTTP side: the connection's state and the
/// partitions' problems (GET /healthz answers 503 while the stream cannot be read), and the
/// counters GET /metrics shows. Written by libnats's threads and the partitions' reader,
/// read by the HTTP threads.
///
///     status.count(messages: 4096, unreadable: 1, duplicates: 0)
///     status.problem   // nil while connected and every partition is read
package final class NATSStatus: Sendable {
    package struct Counts: Sendable, Equatable {
        /// Messages read from the partitions (fixes, unreadable, duplicates and skipped alike).
        package var messages = 0
        /// Messages that were not a readable fix (reported and acknowledged).
        package var unreadable = 0
        /// Messages at or below the sequence already read (redeliveries): dropped.
        package var duplicates = 0
        /// Times a connection to a server was made (the first and every reconnection).
        package var connections = 0
    }

    private struct Snapshot {
        var link = NATSLinkState.connecting
        /// Partitions that cannot be read now, and why.
        var partitionProblems: [Int: String] = [:]
        var counts = Counts()
        /// Times the connection was lost.
        var losses = 0
    }

    private let snapshot = Mutex(Snapshot())

    /// Times the connection was lost so far (the partitions' reader reads again after each).
    var losses: Int { snapshot.withLock { $0.losses } }

    package init() {}

    package var counts: Counts { snapshot.withLock { $0.counts } }

    /// Why the stream cannot be read now (/healthz's 503), or nil.
    package var problem: String? {
        snapshot.withLock { state in
            if let problem = state.link.problem { return problem }
            guard let (partition, reason) = state.partitionProblems.min(by: { $0.key < $1.key }) else { return nil }
            // -1: the stream itself (missing, or its partitions unknown).
            return partition < 0 ? reason : "partition \(partition) cannot be read: \(reason)"
        }
    }

    /// Whether the connection is up (the `landmark_near_nats_connected` gauge).
    package var isConnected: Bool {
        snapshot.withLock { if case .connected = $0.link { true } else { false } }
    }

    /// Moves the link; a line on stderr for each move taken.
    func linkMoved(to state: NATSLinkState) {
        let moved = snapshot.withLock { snapshot -> (Bool, again: Bool) in
            let again = snapshot.link == .disconnected
            guard snapshot.link.move(to: state) else { return (false, again) }
            if case .connected = state { snapshot.counts.connections += 1 }
            if state == .disconnected { snapshot.losses += 1 }
            return (true, again)
        }
        guard moved.0 else { return }
        switch state {
        case .connected(let url): serveLine("nats: \(moved.again ? "reconnected" : "connected") to \(url)")
        case .disconnected: serveLine("nats: disconnected; trying the servers again")
        case .connecting, .closed: break
        }
    }

    /// A partition cannot be read (`reason`), or can again (nil); a line on stderr for each change.
    /// Partition -1 stands for the stream (its reader says the line itself).
    func partition(_ partition: Int, problem reason: String?) {
        let changed = snapshot.withLock { snapshot -> Bool in
            guard snapshot.partitionProblems[partition] != reason else { return false }
            snapshot.partitionProblems[partition] = reason
            return true
        }
        guard changed, let reason, partition >= 0 else { return }
        serveLine("nats: partition \(partition): \(reason); trying again")
    }

    func count(messages: Int, unreadable: Int, duplicates: Int) {
        snapshot.withLock {
            $0.counts.messages += messages
            $0.counts.unreadable += unreadable
            $0.counts.duplicates += duplicates
        }
    }
}
