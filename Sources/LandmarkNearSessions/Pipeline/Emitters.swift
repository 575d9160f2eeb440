@_spi(Inlining) import LandmarkNearCore
import LandmarkNearDelivery
import LandmarkNearOutputs

#if canImport(Glibc)
import Glibc
import LandmarkNearEngine
#endif

/// The emitters: where planned outputs go, in this order — `.apns` files (a batch at a time,
/// about one fsync), the stdout lines that announce them, then the deliveries (`--push`,
/// `--webhook`), which run on their own thread.
struct Emitters {
    let output: OutputWriter
    let apnsWriter: APNsFileWriter?
    /// `--push apns` and `--webhook`: the delivery thread's engine-side handle.
    let delivery: NotificationDelivery?
    /// `--flush`, or stdout is a pipe or terminal: flush after every fix that printed.
    let flushEachEvent: Bool
    /// Notifications carry their log ids to the deliveries (with `--state`).
    let keepsState: Bool

    init(options: WatchOptions, output: OutputWriter, store: StateStore?) throws(WatchError) {
        self.output = output
        flushEachEvent = options.flushEachEvent
        keepsState = store != nil
        if let directory = options.apnsDirectory {
            do {
                apnsWriter = try APNsFileWriter(directory: directory)
            } catch {
                throw WatchError(kind: error.kind, origin: .apnsDirectory, message: error.description)
            }
        } else {
            apnsWriter = nil
        }
        guard options.delivery.isEnabled else {
            delivery = nil
            return
        }
        var deliveryOptions = options.delivery
        do {
            if let store, deliveryOptions.ledger == nil {
                deliveryOptions.ledger = try StateDeliveryLedger(path: store.path, options: deliveryOptions)
            }
            delivery = try NotificationDelivery(
                options: deliveryOptions, tokens: Emitters.tokens(of: options.engine.profiles), logPrefix: options.commandName)
        } catch {
            throw WatchError(kind: error.kind, origin: .delivery, message: error.description)
        }
    }

    /// Every device's APNs tokens, from its profile.
    static func tokens(of profiles: DeviceProfiles) -> [DeviceKey: [String]] {
        var tokens: [DeviceKey: [String]] = [:]
        for (device, profile) in profiles.entries where !profile.apnsTokens.isEmpty {
            tokens[device] = profile.apnsTokens
        }
        return tokens
    }

    /// Writes `.apns` files and stdout lines in order, then hands the batch to the deliveries.
    /// `durable` (a store will mark them done): stdout is flushed and the directory synced
    /// before returning.
    func emit(_ batch: [PlannedOutput], durable: Bool, live: Bool, statistics: inout WatchStatistics) throws(WatchError) {
        if let apnsWriter {
            var files: [(name: String, bytes: [UInt8])] = []
            for case .notification(let record) in batch {
                let name =
                    record.apnsFileName.isEmpty
                    ? APNsFileName.make(
                        device: record.device, landmarkID: record.landmarkID, time: record.fixTime, fixNumber: record.fixNumber)
                    : record.apnsFileName
                files.append((name, Array(record.payload.utf8)))
            }
            if !files.isEmpty {
                do {
                    try apnsWriter.write(batch: files)
                } catch {
                    throw WatchError(kind: error.kind, origin: .apnsDirectory, message: error.description)
                }
                statistics.apnsFilesWritten += files.count
                if durable { apnsWriter.synchronizeDirectory() }
            }
        }
        for item in batch {
            switch item {
            case .line(let line, _): output.writeLine(line)
            case .notification(let record): output.writeLine(record.line)
            }
        }
        try flushIfDue(durable: durable, live: live)
        if let delivery {
            submit(batch, to: delivery)
            delivery.flushSubmissions()
        }
    }

    /// Flushes stdout after printing, when what was printed must be seen (or recorded done) at
    /// once: a durable batch, a live input, `--flush`; or to report a failed write.
    func flushIfDue(durable: Bool, live: Bool) throws(WatchError) {
        guard durable || live || flushEachEvent || output.failure != nil else { return }
        try flush()
    }

    func flush() throws(WatchError) {
        do {
            try output.flush()
        } catch {
            throw Emitters.outputError(error)
        }
    }

    func synchronizeDirectory() { apnsWriter?.synchronizeDirectory() }

    /// Each notification to its device's APNs tokens, every line to the webhooks.
    private func submit(_ batch: [PlannedOutput], to delivery: NotificationDelivery) {
        for item in batch {
            switch item {
            case .line(let line, let key):
                delivery.submitLine(key, line: line, notificationID: nil)
            case .notification(let record):
                let key = NotificationKey(
                    device: record.device, landmarkID: record.landmarkID, time: record.fixTime, fixNumber: record.fixNumber)
                let id = keepsState ? record.id : nil
                delivery.submitNotification(key, payload: APNsRequest.body(fromPayload: record.payload), notificationID: id)
                delivery.submitLine(key, line: record.line, notificationID: id)
            }
        }
    }

    /// A closed pipe ends the run quietly (`| head -1`); any other write error is an I/O error.
    static func outputError(_ error: OutputError) -> WatchError {
        error.code == EPIPE ? .closedOutput : WatchError(kind: error.kind, origin: .output, message: "stdout: \(error.description)")
    }
}
