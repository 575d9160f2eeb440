import CNATS
@_spi(Inlining) import LandmarkNearCore
import LandmarkNearDelivery

#if canImport(Glibc)
import Glibc
#endif

/// `landmark-near publish`: fixes onto the partitions of a JetStream stream, each an NDJSON
/// line on `STREAM.P` (P by `NATSPartitions`), nothing lost and, within a partition, in order.
///
/// Messages go out asynchronously in windows of 4,096 and each window is settled before the
/// next starts: every message answered by JetStream. When some were refused or not answered
/// (a server lost, the stream's leader moving), the window is sent again from the first of
/// them, in order, after a backoff (0.25 s doubling to 4 s, for at most 2 minutes). Each
/// message carries `Nats-Msg-Id: RUN-NUMBER`, so JetStream stores a message it already has only
/// once (its duplicate window is 2 minutes): what was stored and not answered is not stored
/// twice. Order holds as long as what failed in a window is its tail, which is how a server
/// loss fails it; a message refused between two stored ones would land after them
/// (docs/reference/nats.md).
///
///     let publisher = try NATSPublisher(servers: servers, stream: "LOC", partitions: 4, replicas: 3)
///     try publisher.publish(device: fix.device, line: FixLine.make(fix))
///     try publisher.finish()
package final class NATSPublisher {
    static let idHeader = "Nats-Msg-Id"
    static let window = 4096
    /// How long a window may take to be stored, retries included.
    static let patience = 120.0

    private let acks = NATSPublishAcks()
    private let connection: NATSConnection
    private let stream: String
    package let partitions: Int
    /// Whether this run made the stream.
    package let createdStream: Bool
    /// Names this run's messages (`Nats-Msg-Id`), random, so two runs never collide.
    private let run: String
    private var pending: [(number: UInt64, subject: String, line: String)] = []
    private var nextNumber: UInt64 = 1
    /// Messages stored (each once, whatever was sent again).
    package private(set) var published = 0
    /// Windows sent again, in part or whole.
    package private(set) var retries = 0

    package init(servers: NATSServers, stream: String, partitions: Int, replicas: Int) throws(ServerError) {
        connection = try NATSConnection(
            servers: servers, name: "landmark-near publish", publishWindow: NATSPublisher.window, publishAcks: acks)
        self.stream = stream
        self.partitions = partitions
        switch try NATSStreamSetup.lookUp(connection.jetStream, stream: stream) {
        case .missing:
            try NATSStreamSetup.create(connection.jetStream, stream: stream, partitions: partitions, replicas: replicas)
            createdStream = true
        case .present(let recorded?, _) where recorded != partitions:
            throw .usage(
                "stream \(stream) has \(recorded) partitions: --partitions \(partitions) would put a device's fixes in two of them",
                .nats)
        case .present:
            createdStream = false
        }
        run = String(UInt64.random(in: 1...UInt64.max), radix: 36)
    }

    /// Queues one fix's line for the partition of `device`; a full window is settled first.
    package func publish(device: String, line: String) throws(ServerError) {
        let partition = NATSPartitions.partition(of: device.utf8, count: partitions)
        let entry = (number: nextNumber, subject: NATSPartitions.subject(stream: stream, partition: partition), line: line)
        nextNumber += 1
        pending.append(entry)
        send(entry)
        if pending.count >= NATSPublisher.window { try settle() }
    }

    /// Settles the last window.
    package func finish() throws(ServerError) {
        if !pending.isEmpty { try settle() }
    }

    /// Closes the connection and waits for libnats's threads to end (`NATSLibrary.closeAndWait`);
    /// nothing may be published after.
    package func close() {
        connection.close()
        NATSLibrary.closeAndWait()
    }

    /// One line on stderr, `landmark-near publish: ...`.
    private func publishLine(_ text: String) {
        let bytes = Array((TerminalText.safe("landmark-near publish: " + text) + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }

    /// The number of a message from its id, `RUN-NUMBER`.
    static func number(ofID id: String) -> UInt64? {
        guard let dash = id.lastIndex(of: "-") else { return nil }
        return UInt64(id[id.index(after: dash)...])
    }

    /// Sends one message; a message libnats does not take is answered as refused at once.
    private func send(_ entry: (number: UInt64, subject: String, line: String)) {
        let library = NATSLibrary.functions
        var message: OpaquePointer?
        var code = entry.line.withCString { library.natsMsg_Create(&message, entry.subject, nil, $0, Int32(strlen($0))) }
        if code == NATS_OK { code = library.natsMsgHeader_Set(message, NATSPublisher.idHeader, "\(run)-\(entry.number)") }
        if code == NATS_OK { code = library.js_PublishMsgAsync(connection.jetStream, &message, nil) }
        // On success libnats owns the message (and set `message` to nil).
        if let message { library.natsMsg_Destroy(message) }
        if code != NATS_OK { acks.refusedBeforeSending(entry.number, reason: NATSLibrary.describe(code)) }
    }

    /// Waits until every message of the window was answered; sends again, in order, from the
    /// first refused or unanswered one, until all are stored or patience runs out.
    private func settle() throws(ServerError) {
        let library = NATSLibrary.functions
        let started = DeliveryClock.monotonicSeconds()
        var backoff = 0.25
        while true {
            var options = jsPubOptions()
            _ = library.jsPubOptions_Init(&options)
            options.MaxWait = 10_000
            let code = library.js_PublishAsyncComplete(connection.jetStream, &options)
            var unanswered: [UInt64] = []
            if code != NATS_OK {
                // Not all answered in time: libnats hands back the ones still waiting (they get
                // no answer after this) and they count as failed.
                var list = natsMsgList()
                if library.js_PublishAsyncGetPendingList(&list, connection.jetStream) == NATS_OK {
                    for index in 0..<Int(list.Count) {
                        var value: UnsafePointer<CChar>?
                        if let message = list.Msgs[index],
                            library.natsMsgHeader_Get(message, NATSPublisher.idHeader, &value) == NATS_OK, let value,
                            let number = NATSPublisher.number(ofID: String(cString: value))
                        {
                            unanswered.append(number)
                        }
                    }
                    library.natsMsgList_Destroy(&list)
                }
            }
            let answers = acks.take(waitingFor: pending.count - unanswered.count, seconds: 2)
            let failed = answers.refused + unanswered
            if failed.isEmpty && answers.complete {
                published += pending.count
                pending.removeAll(keepingCapacity: true)
                return
            }
            let waited = DeliveryClock.monotonicSeconds() - started
            let reason = answers.reason ?? (code == NATS_OK ? "answers missing" : NATSLibrary.describe(code))
            guard waited < NATSPublisher.patience else {
                throw ServerError(
                    kind: .unavailable, setting: .nats,
                    message: "\(failed.count) messages were not stored in \(Int(NATSPublisher.patience)) s: \(reason)")
            }
            // When answers are missing and nothing names the first, the whole window again.
            let first = failed.min() ?? pending[0].number
            let resend = pending.filter { $0.number >= first }
            retries += 1
            publishLine("\(resend.count) of \(pending.count) messages not stored (\(reason)); sending them again in \(backoff) s")
            usleep(useconds_t(backoff * 1_000_000))
            backoff = min(backoff * 2, 4)
            // The ones before `first` are stored: they leave the window.
            published += pending.count - resend.count
            pending = resend
            for entry in resend { send(entry) }
        }
    }
}
