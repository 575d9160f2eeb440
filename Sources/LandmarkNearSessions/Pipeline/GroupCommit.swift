@_spi(Inlining) import LandmarkNearCore
import LandmarkNearEngine
import LandmarkNearOutputs

#if canImport(Glibc)
import Glibc
#endif

/// The group commit of a run with `--state`: the notifications of a batch of records are
/// recorded as decided, with the batch's device changes and the done marks of the batch
/// before, in one transaction; then they are emitted; the next transaction marks them done.
/// So a crash at any moment loses none (what was decided and not marked done is emitted again
/// by the next run), and a notification marked done is never emitted again
/// (docs/reference/state.md).
///
/// A batch is committed when the input pauses, every 50 ms on a live input and every second on
/// a file (the clock is read every 64 records), when 8,192 outputs wait, and at the end.
struct GroupCommit {
    static let liveInterval = 0.05
    static let fileInterval = 1.0
    static let maximumPending = 8192

    let store: StateStore
    /// Notifications emitted and not yet marked done in the store.
    private var emittedIDs: [Int64] = []
    /// Device changes taken from an engine that a reload replaced, for the next commit.
    private var carriedChanges: [DeviceSnapshot] = []
    /// Stream positions reached by records the engine has processed, for the next commit
    /// (`serve --nats`: the latest of each partition).
    private var reachedPositions: [StreamPosition] = []
    /// The NMEA date the store holds.
    private var savedNMEARMCTime: Timestamp?
    private var lastCommit = MonotonicTime.now()
    private var recordsSinceClockCheck = 0

    init(store: StateStore, savedNMEARMCTime: Timestamp?) {
        self.store = store
        self.savedNMEARMCTime = savedNMEARMCTime
    }

    /// True when the last commit emitted notifications not yet marked done.
    var hasUnmarkedEmissions: Bool { !emittedIDs.isEmpty }

    /// Whether the batch is due, one record after another.
    mutating func isDue(pending: Int, live: Bool) -> Bool {
        if pending >= GroupCommit.maximumPending { return true }
        recordsSinceClockCheck += 1
        guard recordsSinceClockCheck >= 64 || (live && pending > 0) else { return false }
        recordsSinceClockCheck = 0
        return MonotonicTime.now() - lastCommit >= (live ? GroupCommit.liveInterval : GroupCommit.fileInterval)
    }

    /// A stream partition was read up to `position` and its records processed: the next commit
    /// saves it with their changes and notifications.
    mutating func reached(_ position: StreamPosition) {
        if let slot = reachedPositions.firstIndex(where: { $0.stream == position.stream && $0.partition == position.partition }) {
            reachedPositions[slot] = position
        } else {
            reachedPositions.append(position)
        }
    }

    /// Keeps the changes of an engine that is being replaced for the next commit.
    mutating func carry(_ changes: [DeviceSnapshot]) { carriedChanges += changes }

    /// Records the batch as decided (with its changes, the NMEA date and the last batch's done
    /// marks); returns the ids of its notifications, to be passed to `emitted(_:)` once they
    /// went out.
    mutating func commit(changes: [DeviceSnapshot], outputs: [PlannedOutput], nmeaDates: [String: Timestamp?]) throws(WatchError)
        -> [Int64]
    {
        lastCommit = MonotonicTime.now()
        let decided = GroupCommit.notifications(in: outputs)
        do {
            try store.commit(
                changes: carriedChanges + changes, decided: decided, done: emittedIDs, nmeaDates: nmeaDates,
                streamPositions: reachedPositions)
        } catch {
            throw WatchError(error)
        }
        carriedChanges = []
        reachedPositions = []
        emittedIDs = []
        savedNMEA(nmeaDates)
        return decided.map(\.id)
    }

    /// The notifications of the last commit went out: the next transaction marks them done.
    mutating func emitted(_ ids: [Int64]) { emittedIDs += ids }

    /// Notifications whose publishing was acknowledged (`EventLinePublisher`): the next
    /// transaction marks them done.
    mutating func acknowledged(_ ids: [Int64]) { emittedIDs += ids }

    /// Marks done, in a transaction of its own, what the last commit emitted.
    mutating func markEmittedDone() throws(WatchError) {
        guard !emittedIDs.isEmpty else { return }
        do {
            try store.markDone(emittedIDs)
        } catch {
            throw WatchError(error)
        }
        emittedIDs = []
    }

    /// Saves device changes and records the outputs as decided, without emitting them: for a
    /// run that cannot print any more (the next run emits them).
    mutating func saveWithoutEmitting(changes: [DeviceSnapshot], decided outputs: [PlannedOutput], nmeaDates: [String: Timestamp?])
        throws(WatchError)
    {
        do {
            try store.commit(
                changes: carriedChanges + changes, decided: GroupCommit.notifications(in: outputs), done: emittedIDs,
                nmeaDates: nmeaDates, streamPositions: reachedPositions)
        } catch {
            throw WatchError(error)
        }
        savedNMEA(nmeaDates)
        carriedChanges = []
        reachedPositions = []
        emittedIDs = []
    }

    /// The NMEA date to save (nil: none, the row goes) when it differs from the saved one.
    func changedNMEADate(_ current: Timestamp?) -> [String: Timestamp?] {
        current == savedNMEARMCTime ? [:] : [Fix.defaultDevice: current]
    }

    private mutating func savedNMEA(_ dates: [String: Timestamp?]) {
        if let date = dates[Fix.defaultDevice] { savedNMEARMCTime = date }
    }

    private static func notifications(in outputs: [PlannedOutput]) -> [NotificationRecord] {
        outputs.compactMap { item in
            if case .notification(let record) = item { return record }
            return nil
        }
    }
}

/// Seconds on the monotonic clock, for commit pacing.
enum MonotonicTime {
    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
