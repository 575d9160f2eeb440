import Dispatch
import Foundation
@_spi(Inlining) import LandmarkNearCore
import LandmarkNearOutputs
import Synchronization

/// What `serve --nats` is told: the servers, the stream, and the partitions it owns (nil: all
/// of them, as `publish` recorded them in the stream).
package struct NATSSettings: Sendable {
    package var servers: NATSServers
    package var stream: String
    package var partitions: [Int]?

    package init(servers: NATSServers, stream: String, partitions: [Int]?) {
        self.servers = servers
        self.stream = stream
        self.partitions = partitions
    }
}

/// `serve --nats`: the partitions of a JetStream stream, read on a thread of their own that
/// feeds the engine through the engine queue as the HTTP threads do (NATSPartitionReader says
/// how, and when a message is acknowledged).
///
///     let receiver = NATSReceiver(settings: settings, positions: positions, queue: queue, status: status)
///     ...
///     receiver.stop()   // the batches in hand committed and acknowledged, then the connection closed
package final class NATSReceiver: Sendable {
    private let control = NATSReaderControl()

    /// Starts the thread, which connects (retrying until a server answers) and reads each
    /// partition from the sequence after `positions` (what the state committed).
    package init(settings: NATSSettings, positions: [Int: StreamPosition], queue: EngineQueue, status: NATSStatus) {
        serveLine("nats: connecting to \(settings.servers.shown), stream \(settings.stream)")
        let control = control
        let thread = Thread {
            NATSReceiver.read(settings: settings, positions: positions, queue: queue, status: status, control: control)
            // Every libnats object is destroyed by now: its threads are waited for, then the
            // server may go on to exit.
            NATSLibrary.closeAndWait()
            control.markEnded()
        }
        thread.name = "nats"
        thread.start()
    }

    /// Connects, reads until stopped, then closes the connection (the reader destroyed its
    /// subscriptions before).
    private static func read(
        settings: NATSSettings, positions: [Int: StreamPosition], queue: EngineQueue, status: NATSStatus, control: NATSReaderControl
    ) {
        let connection: NATSConnection
        do throws(ServerError) {
            connection = try NATSConnection(servers: settings.servers, name: "landmark-near serve", status: status)
        } catch {
            serveLine("nats: \(error.description)")
            return
        }
        var reader = NATSPartitionReader(
            connection: connection, settings: settings, positions: positions, queue: queue, status: status, control: control)
        reader.run()
        connection.close()
    }

    /// Stops reading, lets the batches in hand be committed and acknowledged, closes the
    /// connection and waits for the thread to end. The engine must go on taking jobs until
    /// this returns.
    package func stop() {
        control.requestStop()
        control.waitForEnd()
    }

    /// The engine stopped: ends without acknowledging anything more.
    package func abandon() {
        control.abandon()
        control.waitForEnd()
    }
}

/// What other threads may do to the partitions' reader: ask it to stop (it finishes what it
/// holds), or to give up (it acknowledges nothing more), and wait for it to end.
final class NATSReaderControl: Sendable {
    private let stopping = Atomic<Bool>(false)
    private let abandoned = Atomic<Bool>(false)
    private let ended = DispatchSemaphore(value: 0)

    func requestStop() { stopping.store(true, ordering: .releasing) }

    func abandon() {
        abandoned.store(true, ordering: .releasing)
        requestStop()
    }

    var stopRequested: Bool { stopping.load(ordering: .acquiring) }
    var isAbandoned: Bool { abandoned.load(ordering: .acquiring) }

    /// Sleeps `seconds`, in steps of 50 ms; false when a stop was asked for meanwhile.
    func sleep(_ seconds: Double) -> Bool {
        var left = seconds
        while left > 0 && !stopRequested {
            usleep(useconds_t(min(left, 0.05) * 1_000_000))
            left -= 0.05
        }
        return !stopRequested
    }

    func markEnded() { ended.signal() }

    func waitForEnd() {
        ended.wait()
        ended.signal()
    }
}
