import Dispatch
import Foundation
@_spi(Inlining) import LandmarkNearCore
import LandmarkNearReaders
import Synchronization

/// Formats and writes `nearest` answers on a thread of its own, batch after batch, while the
/// caller's thread reads the next lines and asks the index: on two cores a stream then takes
/// about the index's time instead of the index's plus the formatting's (measured: formatting and
/// writing are a third of a one-thread stream; see Benchmarks/LOG.md). The index stays on the
/// caller's thread; only values cross (`NearestAnswerBatch`).
///
///     let output = NearestAnswerOutput(catalog: catalog, query: query, json: false, descriptor: 1) { line, reason in
///         print("<stdin>:\(line): \(reason)")
///     }
///     _ = output.send(batch)            // false once stdout failed: stop reading
///     _ = output.sendAndWait(batch)     // the same, once the batch is written (at a pause)
///     try output.finish()               // writes what is left, waits, throws stdout's error
///
/// The bytes are `NearestAnswerWriter`'s in input order. A batch is written in blocks of 64 KiB
/// and its end at once when no other batch is waiting (so a live producer, whose batches end
/// whenever no further line is waiting, sees each answer at once). A problem is reported after
/// the answers before it were written.
package final class NearestAnswerOutput: Sendable {
    /// Batches sent and not yet written, at most: the sender waits for a place beyond that.
    static let batchesAhead = 4

    private let handoff = BatchHandoff<NearestAnswerBatch>(capacity: NearestAnswerOutput.batchesAhead)
    /// The error writing met (the thread then only takes the batches, up to the last).
    private let failure = Mutex<OutputError?>(nil)
    /// Signalled once, when the writing thread has ended.
    private let ended = DispatchSemaphore(value: 0)

    /// Starts the writing thread; `problem` is called on it with each unreadable line's number
    /// and reason.
    package init(
        catalog: LandmarkCatalog, query: NearestQuery, json: Bool, descriptor: Int32,
        problem: @escaping @Sendable (Int, String) -> Void
    ) {
        let thread = Thread { [self] in
            write(
                to: OutputWriter(descriptor: descriptor), with: NearestAnswerWriter(catalog: catalog, query: query, json: json),
                problem: problem)
            ended.signal()
        }
        thread.name = "nearest writer"
        thread.start()
    }

    /// Hands `batch` over, waiting for a place; false once writing failed (stop sending).
    package func send(_ batch: NearestAnswerBatch) -> Bool {
        handoff.put(batch)
        return failure.withLock { $0 == nil }
    }

    /// Hands `batch` over and waits until it is written; false once writing failed. For a
    /// batch that ended at a pause of the input: the next read may block for long, and a
    /// reader of stdout that went away must end the stream now, as it did on one thread.
    package func sendAndWait(_ batch: NearestAnswerBatch) -> Bool {
        var batch = batch
        let written = DispatchSemaphore(value: 0)
        batch.written = written
        handoff.put(batch)
        written.wait()
        return failure.withLock { $0 == nil }
    }

    /// Sends `last` (the stream's end), waits until everything is written and the thread has
    /// ended, and throws the error writing met, if any. Call it once, after the last `send`.
    package func finish(_ last: NearestAnswerBatch = NearestAnswerBatch()) throws(OutputError) {
        var last = last
        last.isLast = true
        handoff.put(last)
        ended.wait()
        if let failure = failure.withLock({ $0 }) { throw failure }
    }

    private func write(to output: OutputWriter, with writer: NearestAnswerWriter, problem: (Int, String) -> Void) {
        var failed = false
        while true {
            let batch = handoff.take()
            // After a failed write the batches are only taken (so that no sender waits), up
            // to the last.
            if !failed {
                do {
                    try write(batch, to: output, with: writer, problem: problem)
                } catch {
                    failure.withLock { $0 = error }
                    failed = true
                }
            }
            batch.written?.signal()
            if batch.isLast { return }
        }
    }

    private func write(
        _ batch: NearestAnswerBatch, to output: OutputWriter, with writer: NearestAnswerWriter, problem: (Int, String) -> Void
    ) throws(OutputError) {
        func writeOut() throws(OutputError) {
            if !writer.bytes.isEmpty {
                output.write(bytes: writer.bytes)
                writer.bytes.removeAll(keepingCapacity: true)
            }
            try output.flush()
        }
        var problems = batch.problems[...]
        func report(before query: Int) throws(OutputError) {
            guard let next = problems.first, next.answersBefore == query else { return }
            try writeOut()
            while let next = problems.first, next.answersBefore == query {
                problem(next.line, next.message)
                problems.removeFirst()
            }
        }
        try batch.texts.withUnsafeBufferPointer { (texts) throws(OutputError) in
            try batch.neighbors.withUnsafeBufferPointer { (neighbors) throws(OutputError) in
                var textStart = 0
                for query in 0..<batch.count {
                    try report(before: query)
                    let latitudeEnd = batch.textEnds[2 * query]
                    let longitudeEnd = batch.textEnds[2 * query + 1]
                    writer.answer(
                        batch.coordinates[query], latitude: UnsafeBufferPointer(rebasing: texts[textStart..<latitudeEnd]),
                        longitude: UnsafeBufferPointer(rebasing: texts[latitudeEnd..<longitudeEnd]),
                        neighbors: UnsafeBufferPointer(rebasing: neighbors[batch.neighborRanges[query]]))
                    textStart = longitudeEnd
                    if writer.bytes.count >= 1 << 16 { try writeOut() }
                }
            }
        }
        try report(before: batch.count)
        // The batch's end goes out at once unless another batch is already waiting.
        if batch.isLast || handoff.isEmpty { try writeOut() }
    }
}
