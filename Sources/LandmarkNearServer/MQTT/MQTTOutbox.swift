import Synchronization

/// The event lines waiting to be published (`--mqtt-publish`), between the engine thread, which
/// adds them after each commit, and the publishing connection's network thread, which takes
/// them while connected and reports the broker's PUBACKs. Notifications (with `--state`, they
/// have log ids) are tracked until acknowledged: the engine marks one done only then.
final class MQTTOutbox: Sendable {
    struct Item: Sendable {
        var topic: String
        var payload: [UInt8]
        /// The notification's log id, or nil (a line that is not a logged notification).
        var notificationID: Int64?
    }

    private struct Contents {
        var waiting: [Item] = []
        /// Notifications added and not yet acknowledged (waiting or in flight).
        var unacknowledged = 0
        var acknowledged: [Int64] = []
        var linesInFlight = 0
    }

    private let contents = Mutex(Contents())

    /// From the engine thread.
    func add(_ item: Item) {
        contents.withLock {
            $0.waiting.append(item)
            if item.notificationID != nil { $0.unacknowledged += 1 }
        }
    }

    /// Everything waiting, taken (by the network thread, to publish).
    func take() -> [Item] {
        contents.withLock { contents in
            let items = contents.waiting
            contents.waiting.removeAll(keepingCapacity: true)
            contents.linesInFlight += items.count(where: { $0.notificationID == nil })
            return items
        }
    }

    /// The broker has the item (or refused it for good: it is not tried again either).
    func finished(notificationID: Int64?) {
        contents.withLock {
            if let notificationID {
                $0.unacknowledged -= 1
                $0.acknowledged.append(notificationID)
            } else {
                $0.linesInFlight -= 1
            }
        }
    }

    /// Notifications acknowledged since the last call (the engine marks them done).
    func takeAcknowledged() -> [Int64] {
        contents.withLock { contents in
            let ids = contents.acknowledged
            contents.acknowledged.removeAll(keepingCapacity: true)
            return ids
        }
    }

    var unacknowledgedNotifications: Int { contents.withLock { $0.unacknowledged } }

    /// Notifications acknowledged and not yet taken by the engine.
    var acknowledgedWaiting: Int { contents.withLock { $0.acknowledged.count } }

    /// Nothing waits or is in flight.
    var isSettled: Bool { contents.withLock { $0.waiting.isEmpty && $0.unacknowledged == 0 && $0.linesInFlight == 0 } }
}
