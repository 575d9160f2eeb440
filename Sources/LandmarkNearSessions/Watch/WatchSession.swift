import Foundation

import LandmarkNearCore
import LandmarkNearDelivery
import LandmarkNearEngine
import LandmarkNearOutputs
import LandmarkNearReaders
import LandmarkNearServer

#if canImport(Glibc)
import Glibc
#endif

/// Wires fix readers, the proximity engine, event lines, payloads, `.apns` files and the
/// `--state` database together: the whole of `landmark-near watch`, minus argument parsing.
///
///     let session = try WatchSession(catalog: .embedded, options: WatchOptions(),
///                                    output: OutputWriter(), diagnostics: OutputWriter(descriptor: 2))
///     let statistics = try session.run(inputs: [.file("drive.gpx")])
///
/// Other feeders (an HTTP server, a delivery queue's owner) drive it one record at a time on
/// one thread, which keeps the engine deterministic:
///
///     try session.resumeUndone()                    // once, before the first record
///     try session.process(.fix(fix, line: 1), source: "http", isLive: true)
///     try session.commit()                          // when the input pauses
///     try session.markEmittedDone()                 // and nothing more is waiting
///     try session.finish()                          // at the end
///
/// With a `StateStore`, outputs go in group commits: the notifications of a batch of records
/// are recorded as decided, then printed and written, then marked done (in the next commit),
/// so a crash loses none; a batch is committed when the input pauses, every 50 ms on a live
/// input (1 s on a file), and at the end. When the input pauses, the batch just emitted is
/// marked done at once (`markEmittedDone()`), without waiting for the next one.
public final class WatchSession {
    // `@exclusivity(unchecked)` on what every record touches: the session runs on one thread,
    // and these are never accessed re-entrantly; their dynamic exclusivity checks
    // (`swift_beginAccess`) cost a tenth of a `watch` run (measured; see Benchmarks/LOG.md).
    @exclusivity(unchecked) public private(set) var catalog: LandmarkCatalog
    public private(set) var options: WatchOptions
    private var engine: ProximityEngine
    private let output: OutputWriter
    private let diagnostics: OutputWriter
    private let apnsWriter: APNsFileWriter?
    private let store: StateStore?
    @exclusivity(unchecked) private var payloads: PayloadCache
    /// `--push apns` and `--webhook`: the delivery thread's engine-side handle.
    private let delivery: NotificationDelivery?
    @exclusivity(unchecked) public private(set) var statistics = WatchStatistics()
    @exclusivity(unchecked) private var events: [ProximityEvent] = []
    /// Told of every fix after the engine decided it, with the events it caused (in engine
    /// order, whatever `--events` prints). `map` and `watch --geojson` draw the run from it.
    ///
    ///     session.fixObserver = { fix, disposition, events in
    ///         if disposition == .used { track.append(fix.coordinate) }
    ///     }
    public var fixObserver: ((Fix, FixDisposition, [ProximityEvent]) -> Void)?

    /// Catalog indices of every device's favourites (the landmarks the engine watches).
    public var favoriteIndices: [Int] { engine.favoriteIndices }

    /// Outputs decided and not yet emitted (only with a store; without one they go at once).
    @exclusivity(unchecked) private var pending: [PendingOutput] = []
    /// Device changes taken from an engine replaced by a reload, for the next commit.
    private var carriedChanges: [DeviceSnapshot] = []
    /// Notifications emitted and not yet marked done in the store.
    private var emittedIDs: [Int64] = []
    private var lastCommit = MonotonicTime.now()
    /// The reader being read (by `run`), whose NMEA date goes into each commit.
    private var currentReader: FixReader?
    /// The latest RMC's date and time in the NMEA input read last. With a store it is
    /// restored for the first input of the next run, which goes on with the stream the last
    /// run was reading: a GGA after a split is dated as in one run. Each further input is a
    /// stream of its own and starts without one (docs/reference/fixes.md).
    private var nmeaRMCTime: Timestamp?
    /// The one the store holds.
    private var savedNMEARMCTime: Timestamp?
    private var inputsStarted = 0
    @exclusivity(unchecked) private var recordsSinceClockCheck = 0
    /// Whether the record being processed came from a live input.
    @exclusivity(unchecked) private var currentInputIsLive = false
    /// The format of the input `run` is reading (nil for records handed to `process`).
    @exclusivity(unchecked) private var currentFormat: FixFormat?
    private var signals: SignalInbox?
    private var stop: WatchStop?
    /// An error met inside a pause callback, thrown once the reader has stopped.
    private var deferredError: WatchError?
    private lazy var pauseBridge = PauseBridge(session: self)

    static let liveCommitInterval = 0.05
    static let fileCommitInterval = 1.0
    static let maximumPendingOutputs = 8192

    private enum PendingOutput {
        case line(String, NotificationKey)
        case notification(NotificationRecord)
    }

    public init(
        catalog: LandmarkCatalog, options: WatchOptions, output: OutputWriter, diagnostics: OutputWriter,
        store: StateStore? = nil
    ) throws(WatchError) {
        self.catalog = catalog
        self.options = options
        self.output = output
        self.diagnostics = diagnostics
        self.store = store
        engine = try WatchSession.makeEngine(catalog: catalog, configuration: options.engine)
        if let directory = options.apnsDirectory {
            do {
                apnsWriter = try APNsFileWriter(directory: directory)
            } catch {
                throw WatchError(kind: error.kind, origin: .apnsDirectory, message: error.description)
            }
        } else {
            apnsWriter = nil
        }
        payloads = PayloadCache(options: options.payload)
        if let store {
            engine.tracksChanges = true
            do {
                for device in try store.loadDevices() { engine.restore(device) }
                nmeaRMCTime = try store.loadNMEADates()[Fix.defaultDevice]
                savedNMEARMCTime = nmeaRMCTime
            } catch {
                throw WatchError(error)
            }
        }
        if options.delivery.isEnabled {
            var deliveryOptions = options.delivery
            do {
                if let store, deliveryOptions.ledger == nil {
                    deliveryOptions.ledger = try StateDeliveryLedger(path: store.path, options: deliveryOptions)
                }
                delivery = try NotificationDelivery(
                    options: deliveryOptions, tokens: WatchSession.tokens(of: options.engine.profiles),
                    logPrefix: options.commandName)
            } catch {
                throw WatchError(kind: error.kind, origin: .delivery, message: error.description)
            }
        } else {
            delivery = nil
        }
    }

    private static func tokens(of profiles: DeviceProfiles) -> [DeviceKey: [String]] {
        var tokens: [DeviceKey: [String]] = [:]
        for (device, profile) in profiles.entries where !profile.apnsTokens.isEmpty {
            tokens[device] = profile.apnsTokens
        }
        return tokens
    }

    /// Waits for the deliveries still outstanding at the end of input (each bounded by its
    /// expiration); `shouldStop` (a signal came) ends the wait early. Nil without deliveries.
    package func finishDeliveries(shouldStop: () -> Bool) -> (statistics: DeliveryStatistics, interrupted: Bool)? {
        delivery?.finish(shouldStop: shouldStop)
    }

    /// Reads the delivery counts from any thread while deliveries run (`serve`'s `/metrics`).
    /// Nil without deliveries.
    package var deliveryStatisticsReader: (@Sendable () -> DeliveryStatistics)? { delivery?.statisticsReader }

    private static func makeEngine(catalog: LandmarkCatalog, configuration: EngineConfiguration) throws(WatchError) -> ProximityEngine {
        do {
            return try ProximityEngine(catalog: catalog, configuration: configuration)
        } catch {
            throw WatchError(kind: error.kind, origin: .favorites, message: error.description)
        }
    }

    // MARK: running over inputs

    /// Reads every input in order (stdin for `.standardInput`) through one engine, so device
    /// state carries across files. Missing files are reported before anything is read. With
    /// `signals`, SIGINT and SIGTERM stop at a record boundary (`statistics.stoppedBy`) and
    /// SIGHUP reloads `--landmarks` and `--profiles`. `readingAhead` may be reading the first
    /// input already (started by the CLI before the catalog was loaded); it is used when that
    /// input is read ahead at all, else stopped.
    @discardableResult
    public func run(inputs: [FixInput], signals: SignalInbox? = nil) throws(WatchError) -> WatchStatistics {
        try run(inputs: inputs, signals: signals, readingAhead: nil)
    }

    @discardableResult
    package func run(inputs: [FixInput], signals: SignalInbox?, readingAhead: FixReadAhead?) throws(WatchError) -> WatchStatistics {
        var prestarted = readingAhead
        defer { prestarted?.stop() }
        for case .file(let path) in inputs where !FileManager.default.fileExists(atPath: path) {
            throw WatchError(kind: .missingInput, origin: .input, message: "\(path): no such file")
        }
        self.signals = signals
        defer {
            self.signals = nil
            statistics.devices = engine.deviceCount
            try? diagnostics.flush()
        }
        do throws(WatchError) {
            try resumeUndone()
            for input in inputs where stop == nil {
                // A replay of a file (no state to save as it goes, no deliveries) is read on a
                // thread of its own while the engine works: see `FixReadAhead`.
                if store == nil, delivery == nil, FixReadAhead.isRegularFile(input) {
                    let ahead: FixReadAhead
                    if let early = prestarted, early.input == input, early.format == options.format {
                        ahead = early
                        prestarted = nil
                    } else {
                        ahead = FixReadAhead(input: input, format: options.format)
                    }
                    inputsStarted += 1
                    try runReadingAhead(ahead)
                    continue
                }
                prestarted?.stop()
                prestarted = nil
                let reader: FixReader
                do {
                    reader = try FixReader(input: input, format: options.format, pauseHandler: pauseBridge)
                } catch {
                    if error.isInterrupted { break }
                    throw WatchError(kind: error.kind, origin: .input, message: error.description)
                }
                currentInputIsLive = reader.isLive
                reader.nmeaLatestRMCTime = inputsStarted == 0 ? nmeaRMCTime : nil
                inputsStarted += 1
                currentReader = reader
                defer {
                    nmeaRMCTime = reader.nmeaLatestRMCTime
                    currentReader = nil
                }
                try run(reader)
            }
            try finish()
        } catch {
            // What could not be printed stays decided (emitted again next time); save the rest.
            try? saveWithoutEmitting()
            guard error.isClosedOutput else {
                try? output.flush()
                throw error
            }
            stop = .outputClosed
        }
        statistics.stoppedBy = stop
        return statistics
    }

    private func run(_ reader: FixReader) throws(WatchError) {
        var recordsOfThisInput = 0
        defer { currentFormat = nil }
        let sourceName = reader.sourceName
        let isLive = reader.isLive
        while stop == nil {
            let record: FixRecord?
            do {
                record = try reader.next()
            } catch {
                if let deferredError { throw deferredError }
                if error.isInterrupted { return }
                throw WatchError(kind: error.kind, origin: .input, message: error.description)
            }
            guard let record else {
                if reader.format == .nmea {
                    statistics.sentencesWithoutFix += reader.skipped.count(where: { $0 != NMEALineDecoder.notNMEA })
                }
                // No silent loss: an input that gave nothing says why (docs/reference/fixes.md).
                if recordsOfThisInput == 0, let why = reader.noFixExplanation() {
                    statistics.warnings += 1
                    diagnostics.writeLine(TerminalText.safe("\(reader.sourceName): warning: \(why)"))
                }
                return
            }
            recordsOfThisInput += 1
            currentFormat = reader.format
            try process(record, source: sourceName, isLive: isLive)
        }
    }

    /// `run(_:)` for a regular file read by a `FixReadAhead`: the same records in the same
    /// order, the same end of input; signals are looked at between batches (a few ms apart).
    private func runReadingAhead(_ ahead: FixReadAhead) throws(WatchError) {
        var ended = false
        defer {
            if !ended { ahead.stop() }
            currentFormat = nil
        }
        currentInputIsLive = false
        let sourceName = ahead.input.sourceName
        var recordsOfThisInput = 0
        while stop == nil {
            let batch = ahead.next()
            ended = batch.end != nil
            currentFormat = batch.format
            let records = batch.records
            // The device buckets of the fixes 8 to 11 records on, fetched four at a time while
            // these are processed, once the device table has outgrown the caches (below, it
            // only costs).
            let prefetching = engine.deviceCount >= 1 << 16
            // Retained once a batch, not once a fix: as a stored `var` (SIGHUP replaces it
            // between batches) it is retained around each call (measured; see Benchmarks/LOG.md).
            let engine = self.engine
            for index in records.indices {
                if prefetching, index & 3 == 0, index + 8 < records.count {
                    engine.prefetchDevices(of: batch.lookahead[(index + 8)..<min(index + 12, records.count)])
                }
                recordsOfThisInput += 1
                try process(records[index], source: sourceName, isLive: false, engine: engine)
            }
            if let end = batch.end {
                if let error = end.error {
                    if error.isInterrupted { return }
                    throw WatchError(kind: error.kind, origin: .input, message: error.description)
                }
                if end.format == .nmea {
                    statistics.sentencesWithoutFix += end.skipped.count(where: { $0 != NMEALineDecoder.notNMEA })
                }
                // No silent loss: an input that gave nothing says why (docs/reference/fixes.md).
                if recordsOfThisInput == 0, let why = end.noFixExplanation {
                    statistics.warnings += 1
                    diagnostics.writeLine(TerminalText.safe("\(sourceName): warning: \(why)"))
                }
                return
            }
            if signals != nil { _ = signalArrived() }
        }
    }

    // MARK: one record at a time

    /// Runs one record through the engine (an unreadable one is reported and counted), and
    /// commits when the batch is due.
    public func process(_ record: FixRecord, source: String, isLive: Bool) throws(WatchError) {
        try process(record, source: source, isLive: isLive, engine: engine)
    }

    /// `engine` is `self.engine`, which must not change meanwhile (a reload waits for the
    /// record's end).
    private func process(_ record: FixRecord, source: String, isLive: Bool, engine: ProximityEngine) throws(WatchError) {
        currentInputIsLive = isLive
        statistics.recordsRead += 1
        switch record {
        case .invalid(let issue):
            statistics.unreadable += 1
            if options.strict { throw WatchError(kind: issue.kind, origin: .record(issue), message: issue.description) }
            diagnostics.writeLine(TerminalText.safe(issue.description))
            if isLive || options.flushEachEvent { try? diagnostics.flush() }
        case .fix(let fix, let line):
            try process(fix, location: "\(source):\(line)", engine: engine)
        }
        try commitIfDue()
    }

    private func process(_ fix: Fix, location: @autoclosure () -> String, engine: ProximityEngine) throws(WatchError) {
        events.removeAll(keepingCapacity: true)
        let disposition = engine.process(fix, into: &events)
        switch disposition {
        case .dropped(let reason):
            statistics.dropped[reason, default: 0] += 1
            if reason == .stale, engine.lastStaleRepeatedTime {
                if currentFormat == .nmea { statistics.nmeaSameSecond += 1 } else { statistics.sameTime += 1 }
            }
        case .used:
            statistics.used += 1
        }
        if options.explain { explain(fix, disposition: disposition, location: location()) }
        fixObserver?(fix, disposition, events)
        guard !events.isEmpty else { return }
        let fixNumber = engine.lastFixNumber
        // Nothing but stdout to serve (no state, files or deliveries): each line is written
        // into the output's buffer as it is made, never held as a `String` (`EventLine.write`).
        let printsOnly = store == nil && apnsWriter == nil && delivery == nil
        var printed = false
        for event in events {
            switch event.kind {
            case .exit: statistics.exits += 1
            case .enter:
                statistics.enters += 1
                if let suppression = event.suppression {
                    statistics.suppressed[suppression, default: 0] += 1
                } else {
                    statistics.notifications += 1
                }
            }
            guard event.isNotification || options.events == .all else { continue }
            // The two fields an event shows, not the whole `Landmark` (see `EventLine.make`).
            let landmarkID = catalog.id(at: event.landmarkIndex)
            let landmarkName = catalog.name(at: event.landmarkIndex)
            // Only notifications carry a payload.
            let payload =
                event.isNotification
                ? payloads.json(
                    forLandmarkAt: event.landmarkIndex, named: landmarkName, radius: catalog.radius(at: event.landmarkIndex))
                : nil
            if printsOnly {
                EventLine.write(
                    event: event, fix: fix, landmarkID: landmarkID, landmarkName: landmarkName, payload: payload,
                    includeNotified: options.events == .all, to: output)
                printed = true
                continue
            }
            guard let payload else {
                let key = NotificationKey(
                    device: fix.device, landmarkID: landmarkID, time: fix.time, fixNumber: fixNumber,
                    event: event.kind == .exit ? "exit" : "suppressed")
                pending.append(
                    .line(
                        EventLine.make(
                            event: event, fix: fix, landmarkID: landmarkID, landmarkName: landmarkName, payload: nil,
                            includeNotified: options.events == .all), key))
                continue
            }
            let line = EventLine.make(
                event: event, fix: fix, landmarkID: landmarkID, landmarkName: landmarkName, payload: payload,
                includeNotified: options.events == .all)
            let fileName =
                apnsWriter != nil || store != nil
                ? APNsFileName.make(device: fix.device, landmarkID: landmarkID, time: fix.time, fixNumber: fixNumber) : ""
            pending.append(
                .notification(
                    NotificationRecord(
                        id: store?.takeNotificationID() ?? 0, device: fix.device, landmarkID: landmarkID,
                        landmarkIndex: event.landmarkIndex, landmarkName: landmarkName, fixTime: fix.time,
                        fixNumber: fixNumber, coordinate: fix.coordinate, distance: event.distance,
                        payload: payload, line: line, apnsFileName: fileName)))
        }
        if printed {
            try flushOutputIfDue(durable: false)
        } else if store == nil {
            // No log to write first: emit at once.
            try emitPending()
        }
    }

    private func commitIfDue() throws(WatchError) {
        guard store != nil else { return }
        if pending.count >= WatchSession.maximumPendingOutputs { try commit(); return }
        recordsSinceClockCheck += 1
        guard recordsSinceClockCheck >= 64 || (currentInputIsLive && !pending.isEmpty) else { return }
        recordsSinceClockCheck = 0
        let interval = currentInputIsLive ? WatchSession.liveCommitInterval : WatchSession.fileCommitInterval
        if MonotonicTime.now() - lastCommit >= interval { try commit() }
    }

    /// Commits the batch: device changes and decided notifications go to the store in one
    /// transaction (with the previous batch's done marks), then the batch is printed and
    /// written. Without a store, flushes what was printed.
    public func commit() throws(WatchError) {
        lastCommit = MonotonicTime.now()
        // For feeders that never end a `run` (serve's summary and /metrics).
        statistics.devices = engine.deviceCount
        guard let store else {
            try emitPending()
            return
        }
        let changes = carriedChanges + engine.takeChanges()
        carriedChanges = []
        let batch = pending
        pending = []
        let decided = batch.compactMap { item -> NotificationRecord? in
            if case .notification(let record) = item { return record }
            return nil
        }
        let nmeaDates = changedNMEADate()
        do {
            try store.commit(changes: changes, decided: decided, done: emittedIDs, nmeaDates: nmeaDates)
        } catch {
            throw WatchError(error)
        }
        savedNMEARMCTime = nmeaRMCTime
        emittedIDs = []
        try emit(batch, durable: true)
        emittedIDs = decided.map(\.id)
    }

    /// Marks done, in a transaction of its own, what the last commit emitted (the next commit
    /// would otherwise do it): for when the input is idle, so that a kill at a quiet moment
    /// repeats nothing. Nothing to do without a store or when nothing waits for its mark.
    /// True when the last commit emitted notifications not yet marked done.
    package var hasUnmarkedEmissions: Bool { !emittedIDs.isEmpty }

    public func markEmittedDone() throws(WatchError) {
        guard let store, !emittedIDs.isEmpty else { return }
        do {
            try store.markDone(emittedIDs)
        } catch {
            throw WatchError(error)
        }
        emittedIDs = []
    }

    /// The last commit, then the done marks of what it emitted.
    public func finish() throws(WatchError) {
        try commit()
        try markEmittedDone()
        apnsWriter?.synchronizeDirectory()
        do {
            try output.flush()
        } catch {
            throw WatchSession.outputError(error)
        }
    }

    /// Emits again what an earlier run decided and did not mark done (it died before), then
    /// marks it done. Call it once, before the first record.
    public func resumeUndone() throws(WatchError) {
        guard let store else { return }
        let undone: [NotificationRecord]
        do {
            undone = try store.undoneNotifications()
        } catch {
            throw WatchError(error)
        }
        guard !undone.isEmpty else { return }
        try emit(undone.map { .notification($0) }, durable: true)
        statistics.reemitted += undone.count
        do {
            try store.markDone(undone.map(\.id))
        } catch {
            throw WatchError(error)
        }
    }

    /// Saves device changes and records what is pending as decided, without printing it:
    /// for a run that cannot print any more (it is emitted again by the next run).
    private func saveWithoutEmitting() throws(WatchError) {
        guard let store else { return }
        let decided = pending.compactMap { item -> NotificationRecord? in
            if case .notification(let record) = item { return record }
            return nil
        }
        pending = []
        do {
            try store.commit(
                changes: carriedChanges + engine.takeChanges(), decided: decided, done: emittedIDs,
                nmeaDates: changedNMEADate())
        } catch {
            throw WatchError(error)
        }
        savedNMEARMCTime = nmeaRMCTime
        carriedChanges = []
        emittedIDs = []
    }

    /// The NMEA date to save (nil: none, the row goes), when it changed since the last commit
    /// (read from the reader now: it has decoded the lines whose records were processed).
    private func changedNMEADate() -> [String: Timestamp?] {
        if let currentReader { nmeaRMCTime = currentReader.nmeaLatestRMCTime }
        guard nmeaRMCTime != savedNMEARMCTime else { return [:] }
        return [Fix.defaultDevice: nmeaRMCTime]
    }

    private func emitPending() throws(WatchError) {
        guard !pending.isEmpty else { return }
        let batch = pending
        pending = []
        try emit(batch, durable: false)
    }

    /// Writes `.apns` files and stdout lines in order. `durable` (a store will mark them
    /// done): stdout is flushed and the directory synced before returning.
    private func emit(_ batch: [PendingOutput], durable: Bool) throws(WatchError) {
        if let apnsWriter {
            // Files first (one batch: about one fsync), then the lines that announce them.
            var files: [(name: String, bytes: [UInt8])] = []
            for case .notification(let record) in batch {
                let name =
                    record.apnsFileName.isEmpty
                    ? APNsFileName.make(
                        device: record.device, landmarkID: record.landmarkID,
                        time: record.fixTime, fixNumber: record.fixNumber)
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
        try flushOutputIfDue(durable: durable)
        if let delivery {
            submit(batch, to: delivery)
            delivery.flushSubmissions()
        }
    }

    /// Flushes stdout after printing, when what was printed must be seen (or recorded done) at
    /// once: a durable batch, a live input, `--flush`; or to report a failed write.
    private func flushOutputIfDue(durable: Bool) throws(WatchError) {
        guard durable || currentInputIsLive || options.flushEachEvent || output.failure != nil else { return }
        do {
            try output.flush()
        } catch {
            throw WatchSession.outputError(error)
        }
    }

    /// Hands a batch to the delivery thread once it was recorded (with a store) and printed:
    /// each notification to its device's APNs tokens, every line to the webhooks.
    private func submit(_ batch: [PendingOutput], to delivery: NotificationDelivery) {
        for item in batch {
            switch item {
            case .line(let line, let key):
                delivery.submitLine(key, line: line, notificationID: nil)
            case .notification(let record):
                let key = NotificationKey(
                    device: record.device, landmarkID: record.landmarkID, time: record.fixTime,
                    fixNumber: record.fixNumber)
                let id = store != nil ? record.id : nil
                delivery.submitNotification(key, payload: APNsRequest.body(fromPayload: record.payload), notificationID: id)
                delivery.submitLine(key, line: record.line, notificationID: id)
            }
        }
    }

    private static func outputError(_ error: OutputError) -> WatchError {
        error.code == EPIPE ? .closedOutput : WatchError(kind: error.kind, origin: .output, message: "stdout: \(error.description)")
    }

    // MARK: reloading (SIGHUP)

    /// Replaces the catalog and profiles, keeping every device's state (landmarks that left
    /// the catalog, or a device's favourites, are forgotten). On error nothing changes.
    public func reload(catalog newCatalog: LandmarkCatalog, profiles: DeviceProfiles) throws(WatchError) {
        var configuration = options.engine
        configuration.profiles = profiles
        let fresh = try WatchSession.makeEngine(catalog: newCatalog, configuration: configuration)
        fresh.tracksChanges = store != nil
        carriedChanges += engine.takeChanges()
        for device in engine.snapshots() { fresh.restore(device) }
        engine = fresh
        catalog = newCatalog
        options.engine = configuration
        delivery?.tokens = WatchSession.tokens(of: profiles)
        payloads = PayloadCache(options: options.payload)
    }

    /// Reads `--landmarks` and `--profiles` again; a file that cannot be used is reported and
    /// the old one kept.
    func reloadFromFiles() {
        let prefix = options.commandName + ": SIGHUP: "
        guard options.landmarksPath != nil || options.profilesPath != nil else {
            diagnostics.writeLine(prefix + "nothing to reload (the catalog and profiles did not come from files)")
            try? diagnostics.flush()
            return
        }
        var newCatalog = catalog
        var newProfiles = options.engine.profiles
        do {
            if let path = options.landmarksPath { newCatalog = try CatalogLoader.load(path: path) }
        } catch {
            diagnostics.writeLine(TerminalText.safe(prefix + "\(error.description); keeping the previous catalog and profiles"))
            try? diagnostics.flush()
            return
        }
        do {
            if let path = options.profilesPath { newProfiles = try DeviceProfiles.load(path: path) }
        } catch {
            diagnostics.writeLine(TerminalText.safe(prefix + "\(error.description); keeping the previous catalog and profiles"))
            try? diagnostics.flush()
            return
        }
        do {
            try reload(catalog: newCatalog, profiles: newProfiles)
            diagnostics.writeLine(
                prefix + "reloaded \(newCatalog.landmarks.count) landmarks"
                    + (options.profilesPath != nil ? " and \(newProfiles.devices.count) profiles" : ""))
        } catch {
            diagnostics.writeLine(TerminalText.safe(prefix + "\(error.description); keeping the previous catalog and profiles"))
        }
        try? diagnostics.flush()
    }

    // MARK: pauses and signals

    /// Called by the reader when the input pauses (no byte is waiting): commit now, so a live
    /// notification is out at once, and mark it done at once too, since no next batch is
    /// coming soon to carry the mark. A regular file never pauses, so a replay keeps one
    /// commit a batch.
    fileprivate func inputWillPause() -> Bool {
        do {
            try commit()
            try markEmittedDone()
            return true
        } catch {
            deferredError = error
            return false
        }
    }

    /// Called by the reader when a signal is pending: SIGHUP reloads, SIGINT/SIGTERM stop.
    fileprivate func signalArrived() -> Bool {
        guard let signals else { return true }
        while let signal = signals.take() {
            if signal == SIGHUP {
                reloadFromFiles()
            } else {
                stop = .signal(signal)
            }
        }
        return stop == nil
    }

    fileprivate var wakeDescriptor: Int32 { signals?.descriptor ?? -1 }

    // MARK: --explain

    private func explain(_ fix: Fix, disposition: FixDisposition, location: String) {
        var line = "explain: \(location) device \(JSONWriter.quoted(fix.device))"
        if let time = fix.time { line += " at \(time.rfc3339)" }
        line += ": "
        switch disposition {
        case .dropped(.accuracy):
            line +=
                "dropped, accuracy \(JSONWriter.number(fix.accuracy ?? 0)) m is worse than the maximum accuracy \(JSONWriter.number(options.engine.maxAccuracy)) m"
        case .dropped(.stale):
            line +=
                engine.lastStaleRepeatedTime
                ? "dropped as stale, same time as the device's latest used fix (one moment reported twice, nothing lost)"
                : "dropped as stale, its time is earlier than the device's latest used fix"
        case .dropped(.invalid):
            line += "dropped, \(fix.coordinate.invalidReason ?? "invalid coordinate")"
        case .used:
            if events.isEmpty {
                if let nearest = engine.nearestFavorite(of: fix.device, to: fix.coordinate) {
                    let name = catalog[nearest.landmarkIndex].name
                    let distance = JSONWriter.number(ReportedDistance.millimetres(nearest.distance))
                    if nearest.isInside {
                        line +=
                            "no alert, already inside \(JSONWriter.quoted(name)) (\(distance) m; exit beyond \(JSONWriter.number(options.engine.radius + options.engine.hysteresis)) m)"
                    } else {
                        line +=
                            "no alert, nearest favourite \(JSONWriter.quoted(name)) is \(distance) m away (radius \(JSONWriter.number(options.engine.radius)) m)"
                    }
                } else {
                    line += "no alert, the device has no favourite landmarks"
                }
            } else {
                line += events.map { event in
                    let name = JSONWriter.quoted(catalog[event.landmarkIndex].name)
                    let distance = JSONWriter.number(ReportedDistance.millimetres(event.distance))
                    switch (event.kind, event.suppression) {
                    case (.exit, _): return "exit \(name) at \(distance) m"
                    case (.enter, nil): return "enter \(name) at \(distance) m, notified"
                    case (.enter, .cooldown?):
                        return
                            "enter \(name) at \(distance) m, suppressed: notified for it less than the cooldown \(JSONWriter.number(options.engine.cooldown)) s ago"
                    case (.enter, .profile?):
                        return "enter \(name) at \(distance) m, suppressed: the device's profile has prefersNotifications false"
                    }
                }.joined(separator: "; ")
            }
        }
        diagnostics.writeLine(TerminalText.safe(line))
    }
}

/// The reader's pause handler for a session (the reader holds it weakly, the session owns it).
private final class PauseBridge: InputPauseHandler {
    unowned let session: WatchSession
    init(session: WatchSession) { self.session = session }
    var wakeDescriptor: Int32 { session.wakeDescriptor }
    func inputWillPause() -> Bool { session.inputWillPause() }
    func wakeDescriptorIsReadable() -> Bool { session.signalArrived() }
}

/// Seconds on the monotonic clock, for commit pacing.
enum MonotonicTime {
    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
