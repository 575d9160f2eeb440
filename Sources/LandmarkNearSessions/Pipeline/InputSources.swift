@_spi(Inlining) import LandmarkNearCore
import LandmarkNearReaders

/// An input read in line by a `FixReader` on the pipeline's thread: a live stream (its pauses
/// commit, its signals stop or reload through the reader's pause handler), or any input when
/// the run keeps state or delivers (every record is then committed in order with the rest).
package struct ReaderSource: FixSource {
    package let reader: FixReader
    package let sourceName: String
    package let isLive: Bool
    private var handedOut = 0

    package init(reader: FixReader) {
        self.reader = reader
        sourceName = reader.sourceName
        isLive = reader.isLive
    }

    package var format: FixFormat? { reader.format }

    package mutating func next(_ pipeline: PipelineStatus) -> SourceStep {
        do {
            if let record = try reader.next() {
                handedOut += 1
                return .record(record)
            }
        } catch {
            return .end(InputEnd(error: error, format: reader.format, skipped: reader.skipped, zonelessTime: reader.zonelessTime))
        }
        return .end(
            InputEnd(
                error: nil, format: reader.format, skipped: reader.skipped,
                noFixExplanation: handedOut == 0 ? reader.noFixExplanation() : nil, zonelessTime: reader.zonelessTime))
    }
}

/// A regular file read ahead on a thread of its own (`FixReadAhead`), in batches: the same
/// records in the same order as a `ReaderSource` gives, with a `.boundary` between batches
/// (signals are looked at there, a few milliseconds apart) and device hints for prefetching.
package struct ReadAheadSource: FixSource {
    package let ahead: FixReadAhead
    package let sourceName: String
    package var isLive: Bool { false }
    // The current batch's parts, apart: a step reads one record in place, without copying the
    // batch (and retaining its arrays) each time.
    private var records: [FixRecord] = []
    private var lookahead: [FixLookahead] = []
    private var end: InputEnd?
    package private(set) var format: FixFormat?
    private var position = 0
    private var boundaryGiven = true
    /// The batch with the input's end was handed out: the reading thread has ended.
    package private(set) var ended = false

    package init(ahead: FixReadAhead) {
        self.ahead = ahead
        sourceName = ahead.input.sourceName
    }

    @inline(__always)
    package mutating func next(_ pipeline: PipelineStatus) -> SourceStep {
        while true {
            if position < records.count {
                position &+= 1
                return .record(records[position &- 1])
            }
            if let end {
                ended = true
                return .end(end)
            }
            if !boundaryGiven {
                boundaryGiven = true
                return .boundary
            }
            let batch = ahead.next()
            records = batch.records
            lookahead = batch.lookahead
            end = batch.end
            format = batch.format
            position = 0
            boundaryGiven = false
        }
    }

    /// Every fourth record, the hints of the records 8 to 11 ahead of the one just handed out
    /// (fetched while it and the three after it are processed).
    @inline(__always)
    package func upcoming() -> ArraySlice<FixLookahead> {
        let current = position &- 1
        guard current & 3 == 0, current &+ 8 < lookahead.count else { return [] }
        return lookahead[(current &+ 8)..<min(current &+ 12, lookahead.count)]
    }
}

/// Whether an input is read ahead on a thread of its own: a regular file, in a run that keeps
/// no state and delivers nothing (those commit each batch in line with reading). The CLI asks
/// before it loads the catalog, to start reading early; the pipeline asks again for each input.
package enum ReadAheadRule {
    package static func applies(to input: FixInput, keepsState: Bool, delivers: Bool) -> Bool {
        !keepsState && !delivers && FixReadAhead.isRegularFile(input)
    }
}
