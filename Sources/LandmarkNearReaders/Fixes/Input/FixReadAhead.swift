import Dispatch
import Foundation
@_spi(Inlining) import LandmarkNearCore
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Reads the records of a regular file on a thread of its own, in batches, while the caller
/// (the engine's thread) works on the batches before: the two cores of a `watch` replay then
/// share the work instead of one core reading, parsing and deciding in turn (measured: reading
/// and parsing NDJSON are half of a replay's time; see Benchmarks/LOG.md).
///
///     let ahead = FixReadAhead(input: .file("drive.ndjson"), format: nil)
///     while true {
///         let batch = ahead.next()
///         for record in batch.records { ... }
///         if let end = batch.end { print(end.format, end.error as Any); break }
///     }
///
/// Only for regular files: the batches would hold back a live stream's records, and a live
/// reader's pause handler (signals, commits when the input pauses) belongs on the engine's
/// thread. The caller decides with `isRegularFile(_:)`. The records and their order are those
/// `FixReader` gives; nothing else about reading changes.
package final class FixReadAhead: Sendable {
    /// Records in input order; the last batch carries `end`.
    package struct Batch: Sendable {
        package var records: [FixRecord]
        /// One for each record, made on the reading thread (the engine's thread prefetches
        /// with them).
        package var lookahead: [FixLookahead]
        /// The format read (detected with the first record).
        package var format: FixFormat
        package var end: InputEnd?
    }

    private struct State {
        var batches: [Batch] = []
        var stopRequested = false
        /// Whether the engine has taken a batch (its start-up is over).
        var engineStarted = false
        /// Whether the reader is to yield the cores to the start-up until then
        /// (`yieldUntilTheEngineStarts`).
        var yieldRequested = false
    }

    static let batchSize = 4096
    /// Batches read and not yet taken, at most: bounds memory to a few MB.
    static let batchesAhead = 64

    private let state = Mutex(State())
    /// Batches waiting to be taken.
    private let filled = DispatchSemaphore(value: 0)
    /// Places for batches not yet read.
    private let free = DispatchSemaphore(value: FixReadAhead.batchesAhead)
    /// Signalled once, when the reading thread has ended.
    private let ended = DispatchSemaphore(value: 0)

    /// What is read, and as which format (nil: detected).
    package let input: FixInput
    package let format: FixFormat?

    /// Starts reading `input` (as `FixReader(input:format:)` would) on a new thread. The CLI
    /// starts it before it loads the catalog, so that the two overlap.
    package init(input: FixInput, format: FixFormat?) {
        self.input = input
        self.format = format
        let thread = Thread { [self] in
            read(input: input, format: format)
            ended.signal()
        }
        thread.name = "fix reader"
        thread.start()
    }

    deinit {
        // libdispatch traps when a semaphore goes away below its initial value.
        for _ in 0..<state.withLock({ $0.batches.count }) { free.signal() }
    }

    /// Whether `input` is a regular file (or standard input redirected from one).
    package static func isRegularFile(_ input: FixInput) -> Bool {
        var status = stat()
        switch input {
        case .standardInput: guard fstat(STDIN_FILENO, &status) == 0 else { return false }
        case .file(let path): guard stat(path, &status) == 0 else { return false }
        }
        return (status.st_mode & S_IFMT) == S_IFREG
    }

    /// The next batch, waiting for it; after the one with `end`, do not call again.
    package func next() -> Batch {
        filled.wait()
        let batch = state.withLock { state in
            state.engineStarted = true
            return state.batches.removeFirst()
        }
        free.signal()
        return batch
    }

    /// Lowers the reading thread to the lowest priority until the engine takes its first batch:
    /// for a start-up that uses both cores (places to measure), which the reader would otherwise
    /// slow down by reading what it can as well read beside the engine afterwards (see
    /// `StartPriority`). Not for a start-up that leaves a core idle: there, reading ahead is free.
    package func yieldUntilTheEngineStarts() {
        state.withLock { $0.yieldRequested = true }
    }

    /// Ends reading early (the caller stops before the end of the input), and waits until
    /// the reading thread has ended. Call it once, and only before the batch with `end` came.
    package func stop() {
        state.withLock { $0.stopRequested = true }
        // Unblock a reader waiting for a place; it sees the request before it reads on.
        while ended.wait(timeout: .now() + .milliseconds(1)) == .timedOut {
            if filled.wait(timeout: .now()) == .success {
                state.withLock { _ = $0.batches.removeFirst() }
                free.signal()
            }
        }
    }

    private func read(input: FixInput, format: FixFormat?) {
        let priority = StartPriority()
        let reader: FixReader
        do {
            reader = try FixReader(input: input, format: format)
        } catch {
            let end = InputEnd(error: error, format: format ?? .ndjson, skipped: SkipTally())
            _ = add(Batch(records: [], lookahead: [], format: end.format, end: end))
            return
        }
        var records: [FixRecord] = []
        records.reserveCapacity(FixReadAhead.batchSize)
        var any = false
        var failure: InputError?
        while true {
            priority.lowered = state.withLock { $0.yieldRequested && !$0.engineStarted }
            let more: Bool
            do {
                more = try reader.next(into: &records, limit: FixReadAhead.batchSize)
            } catch {
                failure = error
                more = false
            }
            any = any || !records.isEmpty
            guard more else { break }
            guard add(Batch(records: records, lookahead: records.map(FixLookahead.init), format: reader.format, end: nil)) else {
                return
            }
            records.removeAll(keepingCapacity: true)
        }
        let end = InputEnd(
            error: failure, format: reader.format, skipped: reader.skipped,
            noFixExplanation: any || failure != nil ? nil : reader.noFixExplanation(), zonelessTime: reader.zonelessTime)
        _ = add(Batch(records: records, lookahead: records.map(FixLookahead.init), format: reader.format, end: end))
    }

    /// Hands a batch over, waiting for a place; false when a stop was requested.
    private func add(_ batch: Batch) -> Bool {
        free.wait()
        let accepted = state.withLock { state in
            guard !state.stopRequested else { return false }
            state.batches.append(batch)
            return true
        }
        if accepted {
            filled.signal()
        } else {
            free.signal()
        }
        return accepted
    }

    /// The reading thread's scheduling priority: its own, or the lowest (nice 19) while the
    /// engine starts after `yieldUntilTheEngineStarts`. Why: a start-up that measures places
    /// uses both cores, and the reader would take a share of them to read what it can as well
    /// read beside the engine afterwards, when the engine (slower per fix than reading, with
    /// places near the fixes) keeps one core and the other is free; at the lowest priority it
    /// reads only on a core the start-up leaves idle. Measured: `watch` with 10,000 polygon
    /// favourites over 1M fixes 7 % less time (see Benchmarks/LOG.md). Not for point catalogs,
    /// whose start-up leaves a core idle and whose replays may wait on the reader (NMEA's: 4 %
    /// slower with the reader lowered). Linux keeps the nice value per thread (`setpriority`
    /// with `PRIO_PROCESS` and 0 is the calling thread); raising it back needs the privilege to
    /// (root, CAP_SYS_NICE or RLIMIT_NICE); without, the reader stays at nice 19, which costs
    /// nothing while a core is free for it.
    private final class StartPriority {
        private let original = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)

        var lowered = false {
            didSet {
                guard lowered != oldValue else { return }
                _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, lowered ? 19 : original)
            }
        }
    }
}
