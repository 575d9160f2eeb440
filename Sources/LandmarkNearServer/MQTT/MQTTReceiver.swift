import Foundation
@_spi(Inlining) import LandmarkNearCore
import LandmarkNearDelivery

#if canImport(Glibc)
import Glibc
#endif

/// `serve --mqtt`: the subscription to the broker, on a network thread of its own, feeding the
/// engine through the engine queue as the HTTP threads do.
///
/// The commit point: what one read of the socket brought (every message the broker sent since
/// the last read, at most the receive maximum unacknowledged) goes to the engine as one job,
/// and the network thread waits until the engine has committed it (with `--state`, durably)
/// before it writes again — and only a write sends the PUBACKs that libmosquitto queued as it
/// read those messages. So the broker forgets no message before its fixes are saved; a
/// message read and not committed (a kill, a lost connection, a failed commit) is sent again
/// by the broker, to the same session, and a fix seen twice is dropped as stale.
///
///     let receiver = try MQTTReceiver(options: options, password: nil, queue: queue, status: status)
///     ...
///     receiver.stop()   // the batch in hand committed and acknowledged, then DISCONNECT
package final class MQTTReceiver: Sendable {
    private let control: MQTTLinkControl

    /// Checks the options with a client made here (a bad CA file is an error before anything
    /// starts), then starts the network thread, which connects.
    package init(options: MQTTOptions, password: String?, queue: EngineQueue, status: MQTTStatus) throws(ServerError) {
        _ = try MosquittoClient(clientID: options.clientID, options: options, username: options.broker.username, password: password)
        let control = try MQTTLinkControl()
        self.control = control
        let session = options.clientID.map { "client id \($0), persistent session" } ?? "a clean session"
        serveLine("mqtt: connecting to \(options.broker) (\(session))")
        let thread = Thread {
            // Everything of the connection lives in this scope: gone before the end is marked.
            do {
                let client: MosquittoClient
                do throws(ServerError) {
                    client = try MosquittoClient(
                        clientID: options.clientID, options: options, username: options.broker.username, password: password)
                } catch {
                    serveLine("mqtt: \(error.description)")
                    status.receiverMoved(to: .stopped)
                    MQTTLink.finishThread(control)
                    return
                }
                let role = MQTTReceiverRole(filter: options.broker.topicFilter, queue: queue, status: status, control: control)
                MQTTLink(client: client, role: role, options: options, clientID: options.clientID, control: control).run()
            }
            MQTTLink.finishThread(control)
        }
        thread.name = "mqtt"
        thread.start()
    }

    /// Stops reading, lets the batch in hand be committed and acknowledged, disconnects (the
    /// broker keeps the session) and waits for the network thread to end. The engine must go
    /// on taking jobs until this returns.
    package func stop() {
        control.requestStop()
        control.waitForEnd()
    }

    /// The engine stopped: closes the connection without acknowledging anything more.
    package func abandon() {
        control.abandon()
        control.waitForEnd()
    }
}

/// The receiver's side of the network thread: decodes messages into records as they are
/// read, and after each read hands them to the engine and waits for their commit.
final class MQTTReceiverRole: MQTTLinkRole {
    let label = "mqtt"
    private let filter: String
    private let queue: EngineQueue
    private let status: MQTTStatus
    private let control: MQTTLinkControl
    /// Messages received by this run (numbers them in messages).
    private var number = 0
    private var records: [FixRecord] = []
    private var counts = (locations: 0, skipped: 0, bad: 0)
    private var sessionPresent = false

    /// At most this many messages a read: the receive maximum bounds QoS 1 messages, nothing
    /// bounds QoS 0 ones.
    static let largestRead = 16_384

    init(filter: String, queue: EngineQueue, status: MQTTStatus, control: MQTTLinkControl) {
        self.filter = filter
        self.queue = queue
        self.status = status
        self.control = control
    }

    func connected(_ client: MosquittoClient, sessionPresent: Bool) {
        self.sessionPresent = sessionPresent
        let code = client.subscribe(filter)
        if code != 0 { serveLine("mqtt: cannot subscribe to \(filter): \(MosquittoLibrary.describe(code))") }
    }

    func subscribeAnswered(granted: Int32) {
        guard granted < 0x80 else {
            let reason = MosquittoLibrary.functions.reason_string(granted).map { String(cString: $0) } ?? "reason \(granted)"
            status.subscriptionRefused(reason)
            serveLine("mqtt: the broker refused the subscription to \(filter): \(reason)")
            return
        }
        serveLine("mqtt: subscribed to \(filter) (QoS \(granted), \(sessionPresent ? "session resumed" : "new session"))")
    }

    func moved(to state: MQTTConnectionState) { status.receiverMoved(to: state) }

    func read(_ client: MosquittoClient, isConnected: () -> Bool) -> MQTTReadOutcome {
        var outcome = MQTTReadOutcome.drained
        let before = number
        repeat {
            // libmosquitto leaves errno at EAGAIN when it found the socket empty, and stops
            // after a packet or two otherwise: read on until it is empty.
            errno = 0
            let code = client.read()
            if code != 0 {
                outcome = .lost(code)
                break
            }
            outcome = errno == EAGAIN || errno == EWOULDBLOCK ? .drained : .more
        } while outcome == .more && isConnected() && number - before < MQTTReceiverRole.largestRead
        guard number > before else { return outcome }
        status.count(locations: counts.locations, skipped: counts.skipped, bad: counts.bad)
        counts = (0, 0, 0)
        return commit() ?? outcome
    }

    /// Hands the records read to the engine and waits for their commit; nil once committed,
    /// else what the connection must do instead of acknowledging them.
    private func commit() -> MQTTReadOutcome? {
        guard !records.isEmpty else { return nil }
        let waiter = CommitWaiter()
        let job = EngineJob(.records(records, source: "mqtt")) { answer in waiter.finish(answer) }
        records = []
        // Closed: the engine takes nothing more (the receiver is stopped before that, so this
        // is a server that failed).
        guard queue.submit(job) else { return .abandon }
        switch waiter.wait(control) {
        case .processed?, .answered?, .listing?: return nil
        case .failed(let reason)?: return .uncommitted("the engine could not commit the messages (\(reason))")
        case nil: return .abandon
        }
    }

    func received(topic: UnsafePointer<CChar>, payload: UnsafeRawBufferPointer) {
        number += 1
        switch MQTTMessageDecoder.decode(topic: String(cString: topic), payload: payload, number: number) {
        case .location(let record):
            counts.locations += 1
            records.append(record)
        case .skipped:
            counts.skipped += 1
        case .bad(let record):
            counts.bad += 1
            records.append(record)
        }
    }

    func acknowledged(mid: Int32, reasonCode: Int32) {}

    func prepareWrite(_ client: MosquittoClient) {}
}
