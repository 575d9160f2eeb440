import Foundation
import LandmarkNearDelivery
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The time a connection has for the headers of its next request (docs/reference/serve.md: idle or slow
/// connections are closed after 30 s). libmicrohttpd's own timeout is for inactivity, and it
/// calls no handler before the headers are whole, so a client that trickles a header byte every
/// few seconds (slowloris) would hold its connection for ever. Each connection is entered here
/// when it opens and again when a request ends (keep-alive), and leaves when its headers are in;
/// a sweep every quarter of the limit (at most a second) shuts down the socket of any that has
/// waited longer, and libmicrohttpd then sees the connection end and closes it as usual.
///
/// The socket is shut down, never closed, and only under the lock that `closed` takes, which
/// libmicrohttpd calls before it closes the socket: a descriptor reused by a new connection is
/// never touched.
final class HeaderDeadlines: Sendable {
    private struct Waiting {
        var descriptor: Int32
        /// When the connection began to wait for headers (monotonic seconds); nil while a request
        /// is being received or answered.
        var since: Double?
    }

    let seconds: Double
    private let connections = Mutex<[Int: Waiting]>([:])
    private let sweeping = Atomic<Bool>(false)

    init(seconds: Double) { self.seconds = seconds }

    func opened(_ connection: OpaquePointer, descriptor: Int32) {
        guard descriptor >= 0 else { return }
        let now = DeliveryClock.monotonicSeconds()
        connections.withLock { $0[Int(bitPattern: connection)] = Waiting(descriptor: descriptor, since: now) }
    }

    func headersArrived(_ connection: OpaquePointer) {
        connections.withLock { $0[Int(bitPattern: connection)]?.since = nil }
    }

    func requestEnded(_ connection: OpaquePointer) {
        let now = DeliveryClock.monotonicSeconds()
        connections.withLock { $0[Int(bitPattern: connection)]?.since = now }
    }

    func closed(_ connection: OpaquePointer) {
        _ = connections.withLock { $0.removeValue(forKey: Int(bitPattern: connection)) }
    }

    /// Shuts down every connection that has waited for headers longer than the limit.
    func sweep(now: Double = DeliveryClock.monotonicSeconds()) {
        connections.withLock { waiting in
            for (key, entry) in waiting {
                guard let since = entry.since, now - since > seconds else { continue }
                shutdown(entry.descriptor, Int32(SHUT_RDWR))
                waiting[key]?.since = nil
            }
        }
    }

    func startSweeping() {
        guard !sweeping.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let interval = min(1, max(0.05, seconds / 4))
        Thread.detachNewThread { [self] in
            while sweeping.load(ordering: .acquiring) {
                usleep(UInt32(interval * 1_000_000))
                sweep()
            }
        }
    }

    /// Ends the sweeps. The entries go too, under the lock, so that a sweep already under way
    /// when the daemon stops finds nothing to shut down.
    func stopSweeping() {
        sweeping.store(false, ordering: .releasing)
        connections.withLock { $0.removeAll() }
    }
}
