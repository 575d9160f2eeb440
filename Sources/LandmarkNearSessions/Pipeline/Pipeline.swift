@_spi(Inlining) import LandmarkNearCore
import LandmarkNearDelivery
import LandmarkNearEngine
import LandmarkNearOutputs
import LandmarkNearReaders

/// The one pipeline that `watch`, `map` and `serve` run, in five parts:
///
///     source ──> engine step ──> output plan ──> group commit ──> emitters
///     (FixSource)  (ProximityEngine)  (OutputPlan)   (GroupCommit)    (Emitters)
///
/// A source hands records (`FixSource`: files and stdin, read in line or ahead; the requests of
/// `serve`); the engine decides each fix; the plan turns the events into event lines and
/// notifications (payload, `.apns` name, log record); with `--state` the group commit records
/// them as decided, in one transaction a batch, before the emitters print, write and deliver
/// them, and marks them done in the next one; without it, the emitters take each at once.
///
///     let pipeline = try Pipeline(catalog: .embedded, options: WatchOptions(),
///                                 output: OutputWriter(), diagnostics: OutputWriter(descriptor: 2))
///     let statistics = try pipeline.run(inputs: [.file("drive.gpx")])
///
/// One thread drives it, which keeps the engine deterministic; other threads (the HTTP
/// server's, the deliveries') hand their work to that thread. Its life is a checked state
/// machine (`PipelineStage`): `resume()`, then records, commits and reloads, then `finish()`.
/// `run(inputs:)` and `drain(_:)` make those calls in that order.
public final class Pipeline {
    // `@exclusivity(unchecked)` on what every record touches: one thread drives the pipeline,
    // and these are never accessed re-entrantly (their dynamic checks are measured to cost a
    // tenth of a run; see Benchmarks/LOG.md).
    @exclusivity(unchecked) public internal(set) var catalog: LandmarkCatalog
    @exclusivity(unchecked) public internal(set) var options: WatchOptions
    @exclusivity(unchecked) var engine: ProximityEngine
    /// Bumped by every reload: a loop that holds the engine in a local takes it again.
    @exclusivity(unchecked) var engineGeneration = 0
    let diagnostics: OutputWriter
    @exclusivity(unchecked) var plan: OutputPlan
    let emitters: Emitters
    /// With `--state`; nil without.
    @exclusivity(unchecked) var commits: GroupCommit?
    @exclusivity(unchecked) public internal(set) var statistics = WatchStatistics()
    @exclusivity(unchecked) var events: [ProximityEvent] = []
    @exclusivity(unchecked) var stage = PipelineStage.created
    /// With `serve`: each device's latest fix and since when it is inside (`keepWhereabouts()`).
    @exclusivity(unchecked) var whereabouts: Whereabouts?
    /// `watch --state`: the changes a `serve` took over its API and kept in the file, applied
    /// again over the files at each SIGHUP (`serve` keeps its own, in `AdminDesk`).
    package var overlay: CatalogOverlay?
    /// Told of every fix after the engine decided it, with the events it caused (in engine
    /// order, whatever `--events` prints). `map` and `watch --geojson` draw the run from it.
    ///
    ///     pipeline.fixObserver = { fix, disposition, events in
    ///         if disposition == .used { track.append(fix.coordinate) }
    ///     }
    @exclusivity(unchecked) public var fixObserver: ((Fix, FixDisposition, [ProximityEvent]) -> Void)?
    /// Called for a `.reload` step (`serve`'s SIGHUP); `watch` reloads from its files on SIGHUP.
    package var onReload: ((Pipeline) -> Void)?
    /// Every event line also goes here after its commit (`serve --mqtt-publish`); set before
    /// `resume()`. With a store, a notification is marked done only once it is acknowledged.
    package var eventPublisher: (any EventLinePublisher)? {
        didSet {
            stage.require(.created, for: "eventPublisher")
            plan = OutputPlan(options: options, keepsState: commits != nil, publishes: eventPublisher != nil)
        }
    }

    /// Whether the record being processed came from a live input.
    @exclusivity(unchecked) var currentInputIsLive = false
    /// The format of the input being read (NMEA's same-second fixes are counted apart).
    @exclusivity(unchecked) var currentFormat: FixFormat?
    /// Set while `run(inputs:)` reads: signals, why reading stopped, the reader whose NMEA date
    /// goes into each commit, and an error met inside the reader's pause callback.
    @exclusivity(unchecked) var signals: SignalInbox?
    @exclusivity(unchecked) var stop: WatchStop?
    var currentReader: FixReader?
    var deferredError: WatchError?
    /// The run said that times without a zone are read as UTC (once a run, not once an input).
    var warnedOfZonelessTime = false
    /// The latest RMC's date and time in the NMEA input read last; with a store it is restored
    /// for the first input of the next run (docs/reference/state.md).
    var nmeaRMCTime: Timestamp?
    var inputsStarted = 0
    lazy var pauseBridge = PauseBridge(pipeline: self)

    /// Catalog indices of every device's favourites (the landmarks the engine watches).
    package var favoriteIndices: [Int] { engine.favoriteIndices }

    public init(
        catalog: LandmarkCatalog, options: WatchOptions, output: OutputWriter, diagnostics: OutputWriter,
        store: StateStore? = nil
    ) throws(WatchError) {
        self.catalog = catalog
        self.options = options
        self.diagnostics = diagnostics
        engine = try Pipeline.makeEngine(catalog: catalog, configuration: options.engine)
        engine.explainsMotion = options.explain
        plan = OutputPlan(options: options, keepsState: store != nil)
        emitters = try Emitters(options: options, output: output, store: store)
        if let store {
            engine.tracksChanges = true
            do {
                for device in try store.loadDevices() { engine.restore(device) }
                nmeaRMCTime = try store.loadNMEADates()[Fix.defaultDevice]
            } catch {
                throw WatchError(error)
            }
            commits = GroupCommit(store: store, savedNMEARMCTime: nmeaRMCTime)
        }
    }

    static func makeEngine(catalog: LandmarkCatalog, configuration: EngineConfiguration) throws(WatchError) -> ProximityEngine {
        do {
            return try ProximityEngine(catalog: catalog, configuration: configuration)
        } catch {
            throw WatchError(kind: error.kind, origin: .favorites, message: error.description)
        }
    }

    /// What a source may ask while it decides how long to wait.
    var status: PipelineStatus {
        guard let commits else { return PipelineStatus(hasUnmarkedEmissions: false) }
        return PipelineStatus(
            hasUnmarkedEmissions: commits.hasUnmarkedEmissions || (eventPublisher?.unacknowledgedNotifications ?? 0) > 0
                // An acknowledgement that came before this question still has a done mark to
                // make: without it the source would wait for input that may never come.
                || (eventPublisher?.acknowledgedWaiting ?? 0) > 0)
    }

    // MARK: the life of a run

    /// Emits again what an earlier run decided and did not mark done (it died before), then
    /// marks it done (with an event publisher, once acknowledged). First of all, before any
    /// record.
    public func resume() throws(WatchError) {
        stage.move(to: .running, by: "resume()")
        guard let commits else { return }
        let undone: [NotificationRecord]
        do {
            undone = try commits.store.undoneNotifications()
        } catch {
            throw WatchError(error)
        }
        guard !undone.isEmpty else { return }
        let batch = undone.map { PlannedOutput.notification($0) }
        try emitters.emit(batch, durable: true, live: currentInputIsLive, statistics: &statistics)
        statistics.reemitted += undone.count
        // Published again: marked done once acknowledged.
        if publish(batch) { return }
        do {
            try commits.store.markDone(undone.map(\.id))
        } catch {
            throw WatchError(error)
        }
    }

    /// The last commit, then the done marks of what it emitted; nothing may come after.
    public func finish() throws(WatchError) {
        try commit()
        try markEmittedDone()
        stage.move(to: .finished, by: "finish()")
        emitters.synchronizeDirectory()
        try emitters.flush()
        try? diagnostics.flush()
    }

    /// The outputs cannot be written any more: the device changes and what was decided are
    /// saved without being emitted (the next run emits them), and nothing more may come. What
    /// was decided and not emitted is counted (the summary must not claim it went out).
    func fail() {
        let pending = plan.takePending()
        statistics.unemitted += Pipeline.notificationCount(pending)
        if var commits {
            try? commits.saveWithoutEmitting(changes: takeChanges(), decided: pending, nmeaDates: changedNMEADate(&commits))
            self.commits = commits
        }
        stage.move(to: .failed, by: "fail()")
        try? diagnostics.flush()
    }

    static func notificationCount(_ batch: [PlannedOutput]) -> Int {
        batch.count(where: { if case .notification = $0 { true } else { false } })
    }

    // MARK: commits

    /// Commits the batch: device changes and decided notifications go to the store in one
    /// transaction (with the previous batch's done marks), then the batch is emitted. Without
    /// a store, emits what waits and flushes what was printed.
    package func commit() throws(WatchError) {
        stage.requireRunning(for: "commit()")
        // For runs that never end (serve's summary and /metrics).
        statistics.devices = engine.deviceCount
        // The batch's `--explain` and record lines go out with it (one write): `serve` never
        // reaches the end of an input, and its summary must not come before its last lines.
        defer { try? diagnostics.flush() }
        guard var commits else {
            try emitPending()
            return
        }
        defer { self.commits = commits }
        if let eventPublisher { commits.acknowledged(eventPublisher.takeAcknowledged()) }
        let batch = plan.takePending()
        do {
            let decided = try commits.commit(changes: takeChanges(), outputs: batch, nmeaDates: changedNMEADate(&commits))
            try emitters.emit(batch, durable: true, live: currentInputIsLive, statistics: &statistics)
            // Published: marked done once acknowledged, not with the next commit.
            if !publish(batch) { commits.emitted(decided) }
        } catch {
            // Not saved (the transaction failed: a full disk), or saved and not emitted (the
            // next run emits it): either way, not gone out.
            statistics.unemitted += Pipeline.notificationCount(batch)
            throw error
        }
    }

    /// Marks done, in a transaction of its own, what the last commit emitted (the next commit
    /// would otherwise do it): for an idle input, so that a kill at a quiet moment repeats
    /// nothing.
    package func markEmittedDone() throws(WatchError) {
        if let eventPublisher { commits?.acknowledged(eventPublisher.takeAcknowledged()) }
        guard var commits, commits.hasUnmarkedEmissions else { return }
        defer { self.commits = commits }
        try commits.markEmittedDone()
    }

    /// Commits when the batch is due: with a store, every 50 ms on a live input (1 s on a
    /// file) or when 8,192 outputs wait.
    func commitIfDue() throws(WatchError) {
        // Asked of the stored value in place: a copy out and back would retain and release the
        // store and the commit's arrays once a record.
        guard commits?.isDue(pending: plan.pendingCount, live: currentInputIsLive) == true else { return }
        try commit()
    }

    /// The NMEA date to save when it changed since the last commit (read from the reader now:
    /// it has decoded the lines whose records were processed).
    func changedNMEADate(_ commits: inout GroupCommit) -> [String: Timestamp?] {
        if let currentReader { nmeaRMCTime = currentReader.nmeaLatestRMCTime }
        return commits.changedNMEADate(nmeaRMCTime)
    }

    /// Without a store: emits what the plan holds.
    func emitPending() throws(WatchError) {
        guard plan.pendingCount > 0 else { return }
        let batch = plan.takePending()
        do {
            try emitters.emit(batch, durable: false, live: currentInputIsLive, statistics: &statistics)
        } catch {
            statistics.unemitted += Pipeline.notificationCount(batch)
            throw error
        }
        publish(batch)
    }

    /// Hands every line of `batch` to the event publisher, notifications with their log ids
    /// when a store keeps them; false when there is no publisher.
    @discardableResult
    func publish(_ batch: [PlannedOutput]) -> Bool {
        guard let eventPublisher else { return false }
        for item in batch {
            switch item {
            case .line(let line, let key): eventPublisher.publish(line: line, device: key.device, notificationID: nil)
            case .notification(let record):
                eventPublisher.publish(line: record.line, device: record.device, notificationID: commits == nil ? nil : record.id)
            }
        }
        return true
    }

    // MARK: deliveries

    /// Waits for the deliveries still outstanding at the end of input (each bounded by its
    /// expiration); `shouldStop` (a signal came) ends the wait early. Nil without deliveries.
    package func finishDeliveries(shouldStop: () -> Bool) -> (statistics: DeliveryStatistics, interrupted: Bool)? {
        emitters.delivery?.finish(shouldStop: shouldStop)
    }

    /// Reads the delivery counts from any thread while deliveries run (`serve`'s `/metrics`).
    package var deliveryStatisticsReader: (@Sendable () -> DeliveryStatistics)? { emitters.delivery?.statisticsReader }
}
