import CNATS
@_spi(Inlining) import LandmarkNearCore
import LandmarkNearDelivery
import LandmarkNearOutputs
import LandmarkNearReaders

/// The partitions of `serve --nats`, read on one thread: each owned partition has a durable
/// pull consumer (made anew at start at the sequence after the one the state committed), and
/// the thread takes turns fetching from each (what arrived since the last fetch, without
/// waiting when one has none; when a whole turn found nothing it waits up to 100 ms on one
/// partition).
///
/// A turn's messages become one engine job a partition (`.stream`: the records in stream
/// order and the sequence reached, which the engine saves with their changes in the same
/// commit). The thread goes on fetching the next turn while the engine works, then waits
/// for the earlier turn's commit, and only then acknowledges it (one acknowledgement a
/// partition: the consumer acknowledges cumulatively). So JetStream forgets no message
/// before its fixes and notifications are saved, at most two turns are unacknowledged, and a
/// restart reads again exactly what the state had not committed. A message at or below the
/// highest sequence already handed to the engine (a redelivery: an acknowledgement lost with a
/// server) is a duplicate: counted and dropped.
///
/// A message that is not a readable fix becomes an unreadable record named
/// `nats:STREAM.P:SEQUENCE`, which the engine reports (one stderr line) and counts, and is
/// acknowledged with the rest. A partition that cannot be read (JetStream unreachable, the
/// stream missing, a consumer lost with its servers) is reported once, made again from the
/// sequence after the last one handed over, after a backoff (0.25 s doubling to 4 s).
struct NATSPartitionReader {
    /// A fetch's batch: what a consumer may have unacknowledged, because libnats 3.4's fetch
    /// (js.c `_fetch`, fixed in nats.c 3.9.0, #749) can write past its array of `Batch` slots:
    /// it first takes the c messages already queued, then lowers `Batch` to `Batch - c` and
    /// reads until its count *equals* that, so with Batch / 2 < c < Batch it reads on while
    /// messages come. (A crash in one of about 25 runs of a million fixes: glibc's heap checks,
    /// then libnats's collector freeing what the overflow wrote; Benchmarks/LOG.md.) Every
    /// message a fetch takes was delivered and not yet acknowledged (the reader acknowledges
    /// after commits, never what is queued), and JetStream has at most MaxAckPending of those
    /// out, so the count stays at most `NATSStreamSetup.maximumUnacknowledged` = Batch. Only
    /// a message queued twice (sent again after AckWait, 30 s, while a commit held the reader
    /// that long) could break the bound; `checkedList` stops the process then, rather than let
    /// it run on over a damaged heap. The request then asks for Batch - c, never more than
    /// MaxAckPending, which newer servers refuse (409). Much of a fetch's cost is per request,
    /// so a large batch costs nothing (Benchmarks/README.md, "NATS JetStream").
    static let fetchSize = NATSStreamSetup.maximumUnacknowledged

    /// One owned partition.
    private struct Partition {
        let number: Int
        let source: String
        var subscription: OpaquePointer?
        /// The highest sequence handed to the engine (committed once its turn is).
        var handedOver: UInt64
        var failures = 0
        var backoff = 0.25
        var retryAt = 0.0
    }

    /// A turn handed to the engine and not yet acknowledged.
    private struct Turn {
        var waiters: [CommitWaiter] = []
        /// Per partition index: its messages of the turn (kept until acknowledged: the last
        /// one is acknowledged) and the list to free.
        var lists: [(partition: Int, list: natsMsgList)] = []
        var isEmpty: Bool { lists.isEmpty }
    }

    private let connection: NATSConnection
    private let settings: NATSSettings
    private let queue: EngineQueue
    private let status: NATSStatus
    private let control: NATSReaderControl
    private let decoder = NDJSONLineDecoder()
    private var positions: [Int: StreamPosition]
    /// When JetStream made the stream read (saved with each position).
    private var created: Int64 = 0
    private var partitions: [Partition] = []
    private var idleTurn = 0
    /// Subscriptions of failed consumers, destroyed once no turn holds their messages.
    private var retired: [OpaquePointer] = []

    init(
        connection: NATSConnection, settings: NATSSettings, positions: [Int: StreamPosition], queue: EngineQueue, status: NATSStatus,
        control: NATSReaderControl
    ) {
        self.connection = connection
        self.settings = settings
        self.positions = positions
        self.queue = queue
        self.status = status
        self.control = control
    }

    mutating func run() {
        guard choosePartitions() else { return }
        defer {
            for partition in partitions {
                if let subscription = partition.subscription { NATSLibrary.functions.natsSubscription_Destroy(subscription) }
            }
            destroyRetired()
        }
        var inFlight = Turn()
        var lossesSeen = status.losses
        while !control.stopRequested {
            subscribeWhereNeeded()
            var turn = fetchTurn(waiting: inFlight.isEmpty)
            if status.losses != lossesSeen {
                // The connection was lost: what it was carrying never arrives, and the next
                // (cumulative) acknowledgement would tell JetStream it was read. Every consumer
                // is made again after the last message handed over; what this turn fetched
                // comes again from there. (TCP kept order: what came before the loss is all
                // that was handed over, and what was lost follows it.)
                lossesSeen = status.losses
                release(&turn)
                for index in partitions.indices {
                    if let subscription = partitions[index].subscription { retired.append(subscription) }
                    partitions[index].subscription = nil
                    partitions[index].failures = 0
                    partitions[index].retryAt = 0
                }
            }
            let handed = turn.isEmpty || handOver(&turn)
            // The engine works on `turn` while the earlier one is acknowledged.
            let settled = settle(&inFlight)
            // `inFlight`'s messages are freed; `turn` has none of a retired subscription (a
            // partition's consumer is retired when its fetch brought nothing).
            destroyRetired()
            guard settled, handed else {
                release(&turn)
                break
            }
            inFlight = turn
        }
        _ = settle(&inFlight)
    }

    private mutating func destroyRetired() {
        for subscription in retired { NATSLibrary.functions.natsSubscription_Destroy(subscription) }
        retired = []
    }

    /// The partitions to read: those given, or all that `publish` recorded in the stream
    /// (waiting, with a backoff, for the stream to exist).
    private mutating func choosePartitions() -> Bool {
        var backoff = 0.25
        var told: String?
        while !control.stopRequested {
            var problem: String
            do throws(ServerError) {
                switch try NATSStreamSetup.lookUp(connection.jetStream, stream: settings.stream) {
                case .present(let recorded, let created):
                    if let chosen = settings.partitions {
                        if let recorded, let beyond = chosen.first(where: { $0 >= recorded }) {
                            problem = "stream \(settings.stream) has \(recorded) partitions: there is no partition \(beyond)"
                            break
                        }
                        start(chosen, created: created)
                        return true
                    }
                    guard let recorded else {
                        problem = "stream \(settings.stream) was not made by 'landmark-near publish': give --nats-partitions"
                        break
                    }
                    start(Array(0..<recorded), created: created)
                    return true
                case .missing:
                    problem = "stream \(settings.stream) does not exist yet ('landmark-near publish' makes it)"
                }
            } catch {
                problem = error.description
            }
            if problem != told {
                serveLine("nats: \(problem); trying again")
                told = problem
            }
            status.partition(-1, problem: problem)
            guard control.sleep(backoff) else { return false }
            backoff = min(backoff * 2, 4)
        }
        return false
    }

    /// Reads `chosen` from where the state says, unless the state's positions are of an earlier
    /// stream of the same name (deleted and made again: its sequences started again at 1).
    private mutating func start(_ chosen: [Int], created: Int64) {
        status.partition(-1, problem: nil)
        self.created = created
        if positions.values.contains(where: { $0.created != created }) {
            serveLine(
                "nats: stream \(settings.stream) was made again since the state read it: its partitions are read from the beginning")
            positions = [:]
        }
        partitions = chosen.map { number in
            Partition(
                number: number, source: "nats:" + NATSPartitions.subject(stream: settings.stream, partition: number),
                handedOver: positions[number]?.sequence ?? 0)
        }
    }

    /// Makes the consumers that are missing (at start, or after a partition failed), each
    /// from the sequence after the last one handed over.
    private mutating func subscribeWhereNeeded() {
        let now = DeliveryClock.monotonicSeconds()
        for index in partitions.indices where partitions[index].subscription == nil && partitions[index].retryAt <= now {
            let start = partitions[index].handedOver + 1
            do throws(ServerError) {
                partitions[index].subscription = try NATSStreamSetup.subscribe(
                    connection.jetStream, stream: settings.stream, partition: partitions[index].number, start: start)
                partitions[index].failures = 0
                partitions[index].backoff = 0.25
                status.partition(partitions[index].number, problem: nil)
                serveLine(
                    "nats: consuming \(NATSPartitions.subject(stream: settings.stream, partition: partitions[index].number)) from sequence \(start)"
                )
            } catch {
                status.partition(partitions[index].number, problem: error.description)
                partitions[index].retryAt = now + partitions[index].backoff
                partitions[index].backoff = min(partitions[index].backoff * 2, 4)
            }
        }
    }

    /// One fetch from each partition.
    private mutating func fetchTurn(waiting: Bool) -> Turn {
        let library = NATSLibrary.functions
        var turn = Turn()
        for index in partitions.indices {
            guard let subscription = partitions[index].subscription else { continue }
            var list = natsMsgList()
            var request = jsFetchRequest()
            _ = library.jsFetchRequest_Init(&request)
            request.Batch = Int32(NATSPartitionReader.fetchSize)
            // No wait and no expiry: libnats sends the request and returns at once with what
            // earlier requests brought (its queue), so a partition with nothing costs nothing;
            // with an expiry, the server holds the request of an empty partition until it
            // expires (measured: a turn then waits that long for each empty partition).
            // What is in flight is bounded by the consumer's MaxAckPending.
            request.NoWait = true
            request.Expires = 0
            let code = library.natsSubscription_FetchRequest(&list, subscription, &request)
            NATSPartitionReader.checkedList(list)
            if list.Count > 0 {
                partitions[index].failures = 0
                turn.lists.append((index, list))
            } else {
                if list.Msgs != nil { library.natsMsgList_Destroy(&list) }
                noteFetch(code, at: index)
            }
        }
        // Nothing anywhere: wait a little on one partition (in turn), so that an idle stream
        // costs about ten requests a second a partition and a message waits at most 100 ms.
        if turn.isEmpty && waiting, !partitions.isEmpty {
            idleTurn = (idleTurn + 1) % partitions.count
            if let subscription = partitions[idleTurn].subscription {
                var list = natsMsgList()
                let code = library.natsSubscription_Fetch(&list, subscription, Int32(NATSPartitionReader.fetchSize), 100, nil)
                NATSPartitionReader.checkedList(list)
                if list.Count > 0 {
                    turn.lists.append((idleTurn, list))
                } else {
                    if list.Msgs != nil { library.natsMsgList_Destroy(&list) }
                    noteFetch(code, at: idleTurn)
                }
            } else {
                _ = control.sleep(0.1)
            }
        }
        return turn
    }

    /// libnats wrote more messages than the fetch's batch into its array (see `fetchSize`):
    /// the heap is damaged, and nothing after can be trusted.
    private static func checkedList(_ list: natsMsgList) {
        guard Int(list.Count) <= fetchSize else {
            fatalError("libnats returned \(list.Count) messages for a fetch of \(fetchSize) (nats.c #749): stopping")
        }
    }

    /// A fetch that brought nothing: fine when there was nothing to bring; after three
    /// failures since the last fetch that brought messages, the consumer is made again (it may
    /// be gone with its servers). Empty fetches between the failures do not reset the count:
    /// after a leader's loss a consumer can answer empty and fail by turns and never recover
    /// (seen once in a CI run that reset it: 222 of 2,653 messages never came in 90 s). The
    /// old subscription is destroyed only after the turn in flight is settled, since that
    /// turn's messages are acknowledged through it.
    private mutating func noteFetch(_ code: natsStatus, at index: Int) {
        if code == NATS_OK || code == NATS_TIMEOUT || code == NATS_NOT_FOUND { return }
        partitions[index].failures += 1
        guard partitions[index].failures >= 3 else { return }
        if let subscription = partitions[index].subscription { retired.append(subscription) }
        partitions[index].subscription = nil
        partitions[index].failures = 0
        status.partition(partitions[index].number, problem: "fetch failed: \(NATSLibrary.describe(code))")
        partitions[index].retryAt = DeliveryClock.monotonicSeconds() + partitions[index].backoff
    }

    /// Decodes the turn's messages and hands each partition's records to the engine.
    /// False when the engine takes nothing more (the queue is closed).
    private mutating func handOver(_ turn: inout Turn) -> Bool {
        let library = NATSLibrary.functions
        var counts = (messages: 0, unreadable: 0, duplicates: 0)
        for (index, list) in turn.lists {
            var records: [FixRecord] = []
            records.reserveCapacity(Int(list.Count))
            let source = partitions[index].source
            var reached = partitions[index].handedOver
            for position in 0..<Int(list.Count) {
                guard let message = list.Msgs[position] else { continue }
                counts.messages += 1
                guard let sequence = NATSPartitionReader.streamSequence(of: message) else { continue }
                guard sequence > reached else {
                    counts.duplicates += 1
                    continue
                }
                reached = sequence
                let length = Int(library.natsMsg_GetDataLength(message))
                let data = UnsafeRawPointer(library.natsMsg_GetData(message))
                let bytes = UnsafeRawBufferPointer(start: length > 0 ? data : nil, count: length > 0 && data != nil ? length : 0)
                if let record = decode(bytes.bindMemory(to: UInt8.self), source: source, sequence: sequence) {
                    if case .invalid = record { counts.unreadable += 1 }
                    records.append(record)
                }
            }
            partitions[index].handedOver = reached
            let waiter = CommitWaiter()
            let position = StreamPosition(
                stream: settings.stream, partition: partitions[index].number, sequence: reached, created: created)
            status.count(messages: counts.messages, unreadable: counts.unreadable, duplicates: counts.duplicates)
            counts = (0, 0, 0)
            guard queue.submit(EngineJob(.stream(records, source: source, position: position)) { waiter.finish($0) }) else {
                return false
            }
            turn.waiters.append(waiter)
        }
        return true
    }

    /// The stream sequence of a message a consumer delivered, read from its reply subject
    /// (`$JS.ACK.<stream>.<consumer>.<delivered>.<stream seq>.<consumer seq>.<time>.<pending>`,
    /// or with `<domain>.<account hash>.` after `$JS.ACK.` and a token after `<pending>`, from
    /// servers 2.9 on) without allocating: natsMsg_GetMetaData parses the same subject into
    /// strings it allocates, a measured fifth of this thread's time at 170,000 messages a
    /// second. A subject of another shape goes to natsMsg_GetMetaData.
    static func streamSequence(of message: OpaquePointer) -> UInt64? {
        let library = NATSLibrary.functions
        if let reply = library.natsMsg_GetReply(message) {
            // Dots: after the 4th (9 tokens) or the 6th (11 or 12 tokens) comes the sequence.
            var dots: [Int] = []
            var index = 0
            while reply[index] != 0 && dots.count < 13 {
                if reply[index] == 0x2E { dots.append(index) }
                index += 1
            }
            let tokens = dots.count + 1
            if reply[index] == 0, tokens == 9 || tokens == 11 || tokens == 12 {
                let start = dots[tokens == 9 ? 4 : 6] + 1
                var value: UInt64 = 0
                var position = start
                while reply[position] >= 0x30 && reply[position] <= 0x39 {
                    let (product, overflow) = value.multipliedReportingOverflow(by: 10)
                    guard !overflow else { return nil }
                    value = product &+ UInt64(reply[position] - 0x30)
                    position += 1
                }
                if position > start && reply[position] == 0x2E { return value }
            }
        }
        var metadata: UnsafeMutablePointer<jsMsgMetaData>?
        guard library.natsMsg_GetMetaData(&metadata, message) == NATS_OK, let metadata else { return nil }
        defer { library.jsMsgMetaData_Destroy(metadata) }
        return metadata.pointee.Sequence.Stream
    }

    /// One message's bytes as a record: a fix, an unreadable record naming the message, or
    /// nil for what is not a fix and not wrong (a blank line, another gpsd class, another
    /// OwnTracks type).
    private func decode(_ bytes: UnsafeBufferPointer<UInt8>, source: String, sequence: UInt64) -> FixRecord? {
        var start = 0
        var end = bytes.count
        // A UTF-8 byte-order mark, spaces around, a line end: not part of the line.
        if end >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { start = 3 }
        while start < end && (bytes[start] == 0x20 || bytes[start] == 0x09) { start += 1 }
        while end > start && (bytes[end - 1] == 0x0A || bytes[end - 1] == 0x0D || bytes[end - 1] == 0x20) { end -= 1 }
        let line = Int(clamping: sequence)
        guard start < end else {
            return .invalid(FixReadIssue(source: source, line: line, reason: "the message is empty, not an NDJSON fix"))
        }
        switch decoder.decode(UnsafeBufferPointer(rebasing: bytes[start..<end])) {
        case .fix(let fix), .fixWithZonelessTime(let fix, _): return .fix(fix, line: line)
        case .skip: return nil
        case .invalid(let reason), .unusable(let reason): return .invalid(FixReadIssue(source: source, line: line, reason: reason))
        }
    }

    /// Waits for the commit of `turn`, then acknowledges the last message of each partition in
    /// it (which acknowledges the ones before) and frees its messages; false when the engine
    /// did not commit it (it stopped or failed): nothing is acknowledged, the next run reads it
    /// again.
    private func settle(_ turn: inout Turn) -> Bool {
        let library = NATSLibrary.functions
        var committed = true
        for waiter in turn.waiters {
            switch waiter.wait(abandoned: { control.isAbandoned }) {
            case .processed?, .answered?, .listing?: continue
            case .failed?, nil: committed = false
            }
        }
        if committed {
            for (_, list) in turn.lists where list.Count > 0 {
                if let last = list.Msgs[Int(list.Count) - 1] { _ = library.natsMsg_Ack(last, nil) }
            }
        }
        release(&turn)
        return committed
    }

    /// Frees the messages of `turn`.
    private func release(_ turn: inout Turn) {
        for index in turn.lists.indices { NATSLibrary.functions.natsMsgList_Destroy(&turn.lists[index].list) }
        turn = Turn()
    }
}
