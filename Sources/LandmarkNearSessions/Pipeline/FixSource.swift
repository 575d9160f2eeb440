@_spi(Inlining) import LandmarkNearCore
import LandmarkNearOutputs
import LandmarkNearReaders

/// What a source hands the pipeline next. The pipeline's one run loop (`Pipeline.drain(_:)`)
/// takes these steps from every source — a file read ahead, a live stream, the requests of
/// `serve` — and does the same with each.
package enum SourceStep {
    /// A record to run through the engine.
    case record(FixRecord)
    /// The records after this come from here (`serve`: the endpoint of a request); unreadable
    /// ones are reported as `<origin>:<line>: <reason>`.
    case origin(String)
    /// Between two read-ahead batches: a moment to look at pending signals.
    case boundary
    /// Nothing is waiting: commit now and mark the commit's outputs done at once, so that a kill
    /// at a quiet moment repeats nothing.
    case idle
    /// Read the catalog and profiles again (`serve`'s SIGHUP).
    case reload
    /// Run this between two records (`serve`'s admin requests: a change to the catalog or
    /// profiles, or a question about who is inside).
    case apply((Pipeline) -> Void)
    /// The records handed out since the last batch end are one batch: commit them (with
    /// `--state`, durably), then tell the source (`FixSource.committed`), which may now
    /// acknowledge them to whoever sent them.
    case batchEnd
    /// The source has nothing more; for an input read from a file or stdin, how it ended.
    case end(InputEnd?)
}

/// Where a pipeline's records come from. A source decides how its records are read and when
/// they are acknowledged; the pipeline decides everything else, the same way for every source.
///
///     var source = ReaderSource(reader: reader)
///     let end = try pipeline.drain(&source)
package protocol FixSource {
    /// Names the records in messages until an `.origin` step says otherwise.
    var sourceName: String { get }
    /// Whether records arrive live (each notification is then flushed at once).
    var isLive: Bool { get }
    /// The format being read, once known.
    var format: FixFormat? { get }
    /// The next step, waiting for it. `pipeline` tells what the source may need to decide how
    /// long to wait.
    mutating func next(_ pipeline: PipelineStatus) -> SourceStep
    /// Device hints of the records a few steps ahead, for the engine to fetch while it works on
    /// the current one; empty when the source reads nothing ahead.
    func upcoming() -> ArraySlice<FixLookahead>
    /// The batch before the last `.batchEnd` (or `.idle`) is committed; `statistics` are the
    /// run's counts after it.
    mutating func committed(_ statistics: WatchStatistics)
    /// Committing failed: true to go on with the next steps (the source has answered its
    /// senders), false to end the run with `error`.
    mutating func commitFailed(_ error: WatchError) -> Bool
    /// A record could not be processed (an output failed while it was written): true to go on
    /// with the next record, false to end the run with `error`.
    mutating func processingFailed(_ error: WatchError) -> Bool
}

extension FixSource {
    package func upcoming() -> ArraySlice<FixLookahead> { [] }
    package mutating func committed(_ statistics: WatchStatistics) {}
    package mutating func commitFailed(_ error: WatchError) -> Bool { false }
    package mutating func processingFailed(_ error: WatchError) -> Bool { false }
}

/// What a source may ask of the pipeline while it decides its next step.
package struct PipelineStatus: Sendable {
    /// The last commit emitted notifications that no commit marked done yet: a source that
    /// would wait long for its next record should give `.idle` after a short while instead.
    package var hasUnmarkedEmissions: Bool
}
