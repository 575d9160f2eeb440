import CMosquitto
import COpenSSL
@_spi(Inlining) import LandmarkNearCore
import LandmarkNearDelivery

#if canImport(Glibc)
import Glibc
#endif

/// The network thread of one MQTT connection: connects, reconnects with backoff, polls the
/// socket, reads, lets its role decide, then writes — the one thread that touches the
/// libmosquitto client. A PUBACK queued by a read goes out only with the write that follows
/// the role's `read`, so a role that returns from `read` only once the messages it read are
/// committed acknowledges nothing uncommitted (docs/reference/mqtt.md).
///
/// Each change of the connection's state is one stderr line (`landmark-near serve: mqtt:
/// ...`); a broker that stays unreachable for the same reason is reported once, not at every
/// attempt. Attempts are 0.25 s apart at first, doubling to at most 30 s, with equal jitter.
final class MQTTLink: MosquittoEvents {
    private let client: MosquittoClient
    private let role: any MQTTLinkRole
    private let options: MQTTOptions
    private let clientID: String?
    private let control: MQTTLinkControl
    private var state = MQTTConnectionState.starting
    private var failures = 0
    private var nextAttempt = 0.0
    /// When a CONNECT without an answer by then is given up (monotonic seconds).
    private var connectDeadline = 0.0
    /// The reason code of a refused CONNACK, for the message about the lost connection.
    private var refusal: String?
    private var random = SystemRandomNumberGenerator()

    static let firstRetry = 0.25
    static let longestRetry = 30.0
    /// How long a broker may take to answer CONNECT.
    static let connectTimeout = 10.0

    init(client: MosquittoClient, role: any MQTTLinkRole, options: MQTTOptions, clientID: String?, control: MQTTLinkControl) {
        self.client = client
        self.role = role
        self.options = options
        self.clientID = clientID
        self.control = control
        client.events = self
    }

    /// Runs until a stop request (then disconnects cleanly) or until the role abandons the
    /// connection (then closes it without a word). The thread marks its end itself, once the
    /// link and its client are gone (`MQTTLink.finishThread`).
    func run() {
        defer {
            if state != .stopped { move(to: .stopped) }
        }
        while !control.stopRequested {
            switch state {
            case .starting, .retrying:
                guard control.sleep(until: nextAttempt) else { break }
                let code = client.connect(to: options.broker, keepAlive: options.keepAlive, persistent: clientID != nil)
                guard code == MOSQ_ERR_SUCCESS.rawValue else {
                    fail(reason(code), connected: false)
                    continue
                }
                connectDeadline = DeliveryClock.monotonicSeconds() + MQTTLink.connectTimeout
                move(to: .connecting)
            case .connecting, .connected:
                guard service() else { return }
            case .stopping, .stopped:
                return
            }
        }
        if state == .connected, !control.isAbandoned { disconnect() }
    }

    /// One round: wait for the socket (or a wake), read, write, keep alive. False when the role
    /// abandoned the connection.
    private func service() -> Bool {
        var moreToRead = false
        while !control.stopRequested, state == .connecting || state == .connected {
            var descriptors = [
                pollfd(fd: client.socket, events: Int16(POLLIN) | (client.wantsWrite ? Int16(POLLOUT) : 0), revents: 0),
                pollfd(fd: control.wake.readDescriptor, events: Int16(POLLIN), revents: 0),
            ]
            _ = poll(&descriptors, 2, moreToRead ? 0 : 1000)
            if descriptors[1].revents != 0 { control.wake.drain() }
            if moreToRead || descriptors[0].revents != 0 {
                switch role.read(client, isConnected: { [unowned self] in state == .connected }) {
                case .drained: moreToRead = false
                case .more: moreToRead = true
                case .lost(let code):
                    fail(refusal ?? reason(code), connected: state == .connected)
                    return true
                case .uncommitted(let why):
                    // Reconnecting closes this socket and drops what libmosquitto queued for it.
                    fail(why, connected: state == .connected)
                    return true
                case .abandon:
                    return false
                }
            }
            if state == .connected { role.prepareWrite(client) }
            if client.wantsWrite {
                let code = client.write()
                if code != MOSQ_ERR_SUCCESS.rawValue {
                    fail(reason(code), connected: state == .connected)
                    return true
                }
            }
            let code = client.keepAlive()
            if code != MOSQ_ERR_SUCCESS.rawValue {
                fail(reason(code), connected: state == .connected)
                return true
            }
            if state == .connecting, DeliveryClock.monotonicSeconds() > connectDeadline {
                fail("no answer to CONNECT within \(Int(MQTTLink.connectTimeout)) s", connected: false)
                return true
            }
        }
        return true
    }

    /// DISCONNECT, written out (at most 2 s): the broker keeps the session and sends no will.
    private func disconnect() {
        move(to: .stopping)
        guard client.disconnect() == MOSQ_ERR_SUCCESS.rawValue else { return }
        let deadline = DeliveryClock.monotonicSeconds() + 2
        while client.wantsWrite, client.socket >= 0, DeliveryClock.monotonicSeconds() < deadline {
            if client.write() != MOSQ_ERR_SUCCESS.rawValue { break }
            var descriptor = pollfd(fd: client.socket, events: Int16(POLLOUT), revents: 0)
            if client.wantsWrite { _ = poll(&descriptor, 1, 100) }
        }
    }

    /// The connection failed or could not be made: retry after the backoff.
    private func fail(_ reason: String, connected: Bool) {
        refusal = nil
        failures += 1
        let nominal = min(MQTTLink.longestRetry, MQTTLink.firstRetry * Double(1 << min(failures - 1, 10)))
        nextAttempt = DeliveryClock.monotonicSeconds() + nominal / 2 + Double.random(in: 0...(nominal / 2), using: &random)
        let wasLost = connected
        let next = MQTTConnectionState.retrying(reason: reason)
        if state == next { return }  // reported already: the same reason again
        move(to: next)
        let endpoint = options.broker.endpoint
        serveLine(
            wasLost
                ? "\(role.label): connection to \(endpoint) lost: \(reason); reconnecting"
                : "\(role.label): cannot connect to \(endpoint): \(reason); trying again (every 30 s at most)")
    }

    private func move(to next: MQTTConnectionState) {
        state.move(to: next)
        role.moved(to: next)
        if next == .stopped { serveLine("\(role.label): disconnected from \(options.broker.endpoint)") }
    }

    private func reason(_ code: Int32) -> String {
        switch code {
        case MOSQ_ERR_TLS.rawValue: "TLS: " + (client.lastLoggedError ?? "the handshake failed")
        case MOSQ_ERR_CONN_LOST.rawValue: "closed by the broker or the network"
        case MOSQ_ERR_KEEPALIVE.rawValue: "the broker stopped answering (no PINGRESP)"
        default: MosquittoLibrary.describe(code).trimmingSuffix(".")
        }
    }

    // MARK: MosquittoEvents

    func connectAnswered(reasonCode: Int32, sessionPresent: Bool) {
        guard reasonCode == 0 else {
            refusal =
                "the broker refused the connection: "
                + (MosquittoLibrary.functions.reason_string(reasonCode).map { String(cString: $0) } ?? "reason \(reasonCode)")
            return
        }
        failures = 0
        move(to: .connected)
        role.connected(client, sessionPresent: sessionPresent)
    }

    func received(topic: UnsafePointer<CChar>, payload: UnsafeRawBufferPointer) { role.received(topic: topic, payload: payload) }

    func acknowledged(mid: Int32, reasonCode: Int32) { role.acknowledged(mid: mid, reasonCode: reasonCode) }

    func subscribeAnswered(granted: Int32) { role.subscribeAnswered(granted: granted) }
}

extension MQTTLink {
    /// The end of an MQTT network thread, once its link and client are destroyed (the client's
    /// TLS objects freed by mosquitto_destroy): this thread's OpenSSL state (its error queue)
    /// freed now rather than by the thread's exit handlers, then the end marked. Marked
    /// earlier, `serve` could exit while the client was being destroyed: a sanitized run
    /// reported the TLS objects of a failed handshake leaked.
    static func finishThread(_ control: MQTTLinkControl) {
        OPENSSL_thread_stop()
        control.markEnded()
    }
}

/// One stderr line of `serve` (terminal-safe), written whole.
func serveLine(_ text: String) {
    let bytes = Array((TerminalText.safe("landmark-near serve: " + text) + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}

extension String {
    /// Without one trailing `suffix` (libmosquitto's messages end with a full stop).
    fileprivate func trimmingSuffix(_ suffix: String) -> String { hasSuffix(suffix) ? String(dropLast(suffix.count)) : self }
}
