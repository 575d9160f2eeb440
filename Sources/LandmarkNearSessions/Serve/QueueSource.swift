import Dispatch
@_spi(Inlining) import LandmarkNearCore
import LandmarkNearOutputs
import LandmarkNearReaders
import LandmarkNearServer

/// The requests of `serve` as a pipeline source: the engine queue's batches in arrival order,
/// each job's records in body order (named by the job's endpoint), a reload where a SIGHUP
/// came, and a `.batchEnd` after each batch. Once the batch is committed (with `--state`,
/// durably), every job of it is answered (off the engine's thread, in order), so a 200 means
/// the fixes were processed and saved. When nothing comes for 50 ms after a batch that
/// notified, an `.idle` step has its notifications marked done at once.
struct QueueSource: FixSource {
    private let queue: EngineQueue
    private let answering: DispatchQueue
    private let metrics: ServerMetrics
    /// Called when the outputs cannot be written any more: the server stops.
    private let stopServing: @Sendable () -> Void
    /// Answers the admin requests (between two records, on this thread).
    private let admin: AdminDesk
    /// The admin answer of the job being handled (set by its `.apply` step).
    private let adminAnswer = AdminAnswerSlot()
    /// The first failure, reported when the server has stopped.
    var failure: ServerError?

    private var batch: [EngineJob] = []
    private var answers: [EngineAnswer] = []
    private var job = 0
    private var record = 0
    private var jobStarted = false
    /// The `.stream` job's position was handed to the pipeline.
    private var positionNoted = false
    /// Why the current job's records stopped being processed (an output failed midway).
    private var jobFailure: String?
    private var batchEnded = true
    /// The last step was `.idle` (a failed commit there is reported, not answered).
    private var idled = false

    let sourceName = "http"
    var isLive: Bool { true }
    var format: FixFormat? { nil }

    init(
        queue: EngineQueue, answering: DispatchQueue, metrics: ServerMetrics, admin: AdminDesk,
        stopServing: @escaping @Sendable () -> Void
    ) {
        self.queue = queue
        self.admin = admin
        self.answering = answering
        self.metrics = metrics
        self.stopServing = stopServing
    }

    mutating func next(_ pipeline: PipelineStatus) -> SourceStep {
        idled = false
        while true {
            if job < batch.count {
                switch batch[job].work {
                case .records(let records, let source):
                    if let step = step(records, source: source) { return step }
                    answers.append(jobFailure.map(EngineAnswer.failed) ?? .processed(records.count))
                    nextJob()
                case .stream(let records, let source, let position):
                    if let step = step(records, source: source) { return step }
                    if jobFailure == nil && !positionNoted {
                        // After the last record: the commit that saves them saves how far the
                        // partition was read.
                        positionNoted = true
                        return .apply { $0.reached(position) }
                    }
                    answers.append(jobFailure.map(EngineAnswer.failed) ?? .processed(records.count))
                    nextJob()
                case .reload:
                    answers.append(.processed(0))
                    nextJob()
                    return .reload
                case .admin(let request, let user):
                    if !jobStarted {
                        jobStarted = true
                        let (desk, slot) = (admin, adminAnswer)
                        return .apply { _ in slot.response = desk.handle(request, user: user) }
                    }
                    answers.append(adminAnswer.take())
                    nextJob()
                }
                continue
            }
            if !batchEnded {
                batchEnded = true
                return .batchEnd
            }
            guard let next = queue.nextBatch(waitingAtMost: pipeline.hasUnmarkedEmissions ? 0.05 : nil) else { return .end(nil) }
            if next.isEmpty {
                idled = true
                return .idle
            }
            batch = next
            answers = []
            answers.reserveCapacity(next.count)
            job = 0
            batchEnded = false
        }
    }

    /// The job's origin, then its records one a step; nil once they are all out (or one failed).
    private mutating func step(_ records: [FixRecord], source: String) -> SourceStep? {
        if !jobStarted {
            jobStarted = true
            return .origin(source)
        }
        if jobFailure == nil, record < records.count {
            record += 1
            return .record(records[record - 1])
        }
        return nil
    }

    private mutating func nextJob() {
        job += 1
        record = 0
        jobStarted = false
        jobFailure = nil
        positionNoted = false
    }

    mutating func processingFailed(_ error: WatchError) -> Bool {
        jobFailure = error.description
        return true
    }

    mutating func committed(_ statistics: WatchStatistics) {
        guard !idled else { return }
        metrics.publish(statistics)
        admin.publish()
        answer(answers)
    }

    mutating func commitFailed(_ error: WatchError) -> Bool {
        if idled {
            standardError("landmark-near serve: \(TerminalText.safe(error.description))")
            return true
        }
        // stdout or the state is gone: say so to the clients and stop.
        failure = ServerError(kind: error.kind, message: error.description)
        stopServing()
        answer(answers.map { _ in .failed("cannot write the outputs") })
        return true
    }

    /// Answering (resuming each connection wakes a daemon thread) runs beside the engine,
    /// which goes on with the next batch; answers keep the batches' order.
    private func answer(_ given: [EngineAnswer]) {
        let jobs = batch
        answering.async { for (job, answer) in zip(jobs, given) { job.finish(answer) } }
    }
}

/// The answer an admin request got on its `.apply` step, until the source collects it.
private final class AdminAnswerSlot {
    var response: EngineAnswer?

    func take() -> EngineAnswer {
        defer { response = nil }
        return response ?? .answered(.problem(500, "the request was not applied"))
    }
}
