import Foundation
@_spi(Inlining) import LandmarkNearCore
import LandmarkNearDelivery

#if canImport(Glibc)
import Glibc
#endif

/// `serve --mqtt-publish TEMPLATE`: each event line published, QoS 1 and not retained, on the
/// template's topic, over a connection of its own (a clean session with an id the broker
/// assigns) so that its PUBACKs can be read while the subscription reads nothing.
///
/// The engine calls `publish` after each commit, with the notification's log id when it keeps
/// state; the network thread publishes while connected and reports each PUBACK. The engine
/// marks a notification done only once the broker acknowledged its line
/// (`takeAcknowledged`), so a line the broker did not get when `serve` died is published
/// again by the next run (at least once; docs/reference/mqtt.md).
///
///     let publisher = try MQTTPublisher(options: options, password: nil, status: status)
///     publisher.publish(line: line, device: "alice/phone", notificationID: 42)
///     publisher.takeAcknowledged()   // [42], once the broker has it
package final class MQTTPublisher: Sendable {
    private let control: MQTTLinkControl
    private let outbox = MQTTOutbox()
    private let template: MQTTTopicTemplate

    package init(options: MQTTOptions, template: MQTTTopicTemplate, password: String?, status: MQTTStatus) throws(ServerError) {
        var clean = options
        // Its own clean session: nothing of it needs keeping (lines in flight are this
        // process's to resend, and the state's to publish again after a crash).
        clean.clientID = nil
        let options = clean
        self.template = template
        _ = try MosquittoClient(clientID: nil, options: options, username: options.broker.username, password: password)
        let control = try MQTTLinkControl()
        self.control = control
        let outbox = outbox
        let thread = Thread {
            // Everything of the connection lives in this scope: gone before the end is marked.
            do {
                let client: MosquittoClient
                do throws(ServerError) {
                    client = try MosquittoClient(clientID: nil, options: options, username: options.broker.username, password: password)
                } catch {
                    serveLine("mqtt publish: \(error.description)")
                    MQTTLink.finishThread(control)
                    return
                }
                let role = MQTTPublisherRole(outbox: outbox, status: status, control: control)
                MQTTLink(client: client, role: role, options: options, clientID: nil, control: control).run()
            }
            MQTTLink.finishThread(control)
        }
        thread.name = "mqtt publish"
        thread.start()
    }

    /// Queues `line` (an event of `device`) for publishing; from the engine thread.
    package func publish(line: String, device: String, notificationID: Int64?) {
        outbox.add(MQTTOutbox.Item(topic: template.topic(device: device), payload: Array(line.utf8), notificationID: notificationID))
        control.wake.signal()
    }

    /// Notifications whose lines the broker acknowledged since the last call.
    package func takeAcknowledged() -> [Int64] { outbox.takeAcknowledged() }

    /// Notifications published and not yet acknowledged.
    package var unacknowledgedNotifications: Int { outbox.unacknowledgedNotifications }

    /// Notifications acknowledged and not yet taken (`takeAcknowledged`).
    package var acknowledgedWaiting: Int { outbox.acknowledgedWaiting }

    /// Waits until the broker acknowledged everything published, at most `seconds`; a true
    /// `shouldStop` (asked every 10 ms) ends the wait early. Whether everything was.
    package func waitUntilAcknowledged(seconds: Double, shouldStop: () -> Bool) -> Bool {
        let deadline = DeliveryClock.monotonicSeconds() + seconds
        while !outbox.isSettled {
            if shouldStop() || DeliveryClock.monotonicSeconds() >= deadline { return false }
            usleep(10_000)
        }
        return true
    }

    /// Disconnects (lines not yet acknowledged are dropped: with `--state` their notifications
    /// stay undone, and the next run publishes them) and waits for the network thread.
    package func stop() {
        control.requestStop()
        control.waitForEnd()
    }
}

/// The publisher's side of the network thread.
final class MQTTPublisherRole: MQTTLinkRole {
    let label = "mqtt publish"
    private let outbox: MQTTOutbox
    private let status: MQTTStatus
    private let control: MQTTLinkControl
    /// Message id -> notification id (nil: a line without one), until the PUBACK.
    private var inFlight: [Int32: Int64?] = [:]
    /// Refusals already reported, by reason (each is reported once).
    private var reportedRefusals: Set<String> = []

    init(outbox: MQTTOutbox, status: MQTTStatus, control: MQTTLinkControl) {
        self.outbox = outbox
        self.status = status
        self.control = control
    }

    func connected(_ client: MosquittoClient, sessionPresent: Bool) {
        serveLine("mqtt publish: connected")
    }

    func subscribeAnswered(granted: Int32) {}

    func moved(to state: MQTTConnectionState) { status.publisherMoved(to: state) }

    func read(_ client: MosquittoClient, isConnected: () -> Bool) -> MQTTReadOutcome {
        while true {
            errno = 0
            let code = client.read()
            if code != 0 { return .lost(code) }
            if errno == EAGAIN || errno == EWOULDBLOCK || !isConnected() { return .drained }
        }
    }

    func received(topic: UnsafePointer<CChar>, payload: UnsafeRawBufferPointer) {}

    func acknowledged(mid: Int32, reasonCode: Int32) {
        guard let entry = inFlight.removeValue(forKey: mid) else { return }
        if reasonCode >= 0x80 {
            let reason = MosquittoLibrary.functions.reason_string(reasonCode).map { String(cString: $0) } ?? "reason \(reasonCode)"
            refused(reason)
        } else {
            status.countPublished(acknowledged: 1)
        }
        outbox.finished(notificationID: entry)
    }

    func prepareWrite(_ client: MosquittoClient) {
        for item in outbox.take() {
            let (code, mid) = client.publish(topic: item.topic, payload: item.payload)
            guard code == 0 else {
                refused(MosquittoLibrary.describe(code))
                outbox.finished(notificationID: item.notificationID)
                continue
            }
            inFlight[mid] = item.notificationID
            status.countPublished(1)
        }
    }

    /// A line the broker (or libmosquitto) will not take: counted, reported once per reason,
    /// and not tried again (it would be refused for ever).
    private func refused(_ reason: String) {
        status.countPublished(refused: 1)
        if reportedRefusals.insert(reason).inserted {
            serveLine("mqtt publish: an event line was refused: \(reason) (further refusals for this reason are only counted)")
        }
    }
}
