import Dispatch
@_spi(Inlining) import LandmarkNearCore
import LandmarkNearOutputs
import Synchronization

/// The one queue between the HTTP threads and the engine. Request handlers `submit` work with
/// what to do with its answer, and return (the request waits, suspended, without holding its
/// thread); the engine thread takes everything waiting in arrival order (`nextBatch`),
/// processes it, makes the outputs durable once for the batch, then answers each job. So the
/// engine stays single-threaded, the records of one device are processed in the order their
/// requests arrived, a 200 means the fixes were processed, and a batch holds every request
/// that arrived while the previous one was being saved, however the connections are spread
/// over the HTTP threads.
///
///     let job = EngineJob(.records(records, source: "/osmand")) { answer in responder.respond(...) }
///     guard queue.submit(job) else { return responder.respond(.text(503, "shutting down\n")) }
package final class EngineQueue: Sendable {
    private struct Waiting {
        var jobs: [EngineJob] = []
        var closed = false
    }

    private let waiting = Mutex(Waiting())
    private let available = DispatchSemaphore(value: 0)

    package init() {}

    /// Adds a job at the end; false (and the job is not run) once the queue is closed.
    package func submit(_ job: EngineJob) -> Bool {
        let accepted = waiting.withLock { state -> Bool in
            guard !state.closed else { return false }
            state.jobs.append(job)
            return true
        }
        if accepted { available.signal() }
        return accepted
    }

    /// Every job waiting, oldest first, blocking while there is none; nil once the queue is
    /// closed and empty. With `seconds`, an empty batch when none came within that time.
    package func nextBatch(waitingAtMost seconds: Double? = nil) -> [EngineJob]? {
        while true {
            if let seconds {
                if available.wait(timeout: .now() + seconds) == .timedOut { return [] }
            } else {
                available.wait()
            }
            let batch = waiting.withLock { state -> [EngineJob]? in
                if state.jobs.isEmpty { return state.closed ? nil : [] }
                let jobs = state.jobs
                state.jobs.removeAll(keepingCapacity: true)
                return jobs
            }
            guard let batch else {
                available.signal()  // let a later call see the end too
                return nil
            }
            if !batch.isEmpty { return batch }
        }
    }

    /// No more jobs are accepted; those waiting are still handed out.
    package func close() {
        waiting.withLock { $0.closed = true }
        available.signal()
    }
}

/// Work for the engine thread.
package enum EngineWork: Sendable {
    /// Records of one request, in body order; `source` names them on stderr (`/fixes:3: ...`).
    case records([FixRecord], source: String)
    /// Records of one read of a NATS JetStream partition, in stream order; once they are
    /// processed, the partition was read up to `position`, saved with the commit that saves
    /// their changes (so a restart reads on from there).
    case stream([FixRecord], source: String, position: StreamPosition)
    /// Reload landmarks and profiles (SIGHUP).
    case reload
    /// A change to the catalog or profiles, or a question about them or about who is inside
    /// (docs/reference/serve.md), by `user` (nil without `--users`): between two records,
    /// never in the middle of one, so each fix sees the catalog before it or after it.
    case admin(AdminRequest, user: String?)
}

/// What the engine answers: how many records it processed, or why it could not.
package enum EngineAnswer: Sendable, Equatable {
    case processed(Int)
    case failed(String)
    /// An admin request's answer, given once its batch is committed.
    case answered(HTTPResponse)
    /// `GET /landmarks`: the catalog in force, written off the engine thread.
    case listing(LandmarkListing)
}

/// One submitted piece of work and what to do with its answer.
package final class EngineJob: Sendable {
    package let work: EngineWork
    private let completion: @Sendable (EngineAnswer) -> Void

    /// `completion` runs on the engine thread: it should only hand the answer on.
    package init(_ work: EngineWork, completion: @escaping @Sendable (EngineAnswer) -> Void = { _ in }) {
        self.work = work
        self.completion = completion
    }

    /// Called once by the engine thread.
    package func finish(_ value: EngineAnswer) { completion(value) }
}
