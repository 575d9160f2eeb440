/// Where a pipeline is in its life, with the only transitions it may make:
///
///     created --resume()--> running --finish()--> finished
///        |                     |
///        +------- fail() ------+--> failed
///
/// A call out of turn (a record after `finish()`, a second `resume()`) is a programming error,
/// not a condition of the input: it stops the process with both stages named, as swift-nio's
/// handlers do with their states.
package enum PipelineStage: Sendable, Equatable {
    /// Made: nothing was emitted yet. `resume()` comes first.
    case created
    /// What an earlier run decided and did not mark done went out again: records may come.
    case running
    /// The last commit was made and what it emitted marked done.
    case finished
    /// The outputs could not be written any more (stdout closed, the disk full): what was decided
    /// was saved, to be emitted again by the next run.
    case failed

    /// Whether a pipeline may go from `from` to `to`.
    static func allowed(from: PipelineStage, to: PipelineStage) -> Bool {
        switch (from, to) {
        case (.created, .running), (.running, .finished), (.created, .failed), (.running, .failed): true
        default: false
        }
    }

    /// Moves to `next`, or stops the process when `operation` may not make that move.
    mutating func move(to next: PipelineStage, by operation: StaticString) {
        guard PipelineStage.allowed(from: self, to: next) else {
            preconditionFailure("Pipeline.\(operation): cannot go from \(self) to \(next)")
        }
        self = next
    }

    /// Stops the process unless the pipeline is at `stage`: what is set up before `resume()`.
    func require(_ stage: PipelineStage, for operation: StaticString) {
        guard self == stage else { preconditionFailure("Pipeline.\(operation): the pipeline is \(self), not \(stage)") }
    }

    /// Stops the process unless the pipeline is `running`: records, commits and reloads come
    /// only between `resume()` and `finish()`.
    func requireRunning(for operation: StaticString) {
        guard self == .running else { preconditionFailure("Pipeline.\(operation): the pipeline is \(self), not running") }
    }
}
