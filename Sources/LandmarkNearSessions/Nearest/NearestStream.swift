@_spi(Inlining) import LandmarkNearCore
import LandmarkNearIndex
import LandmarkNearOutputs
import LandmarkNearReaders

/// `landmark-near nearest` over a stream of `lat,lon` lines (docs/reference/commands.md), on two threads: the
/// caller's reads and parses the lines (`NearestQueryReader`) and asks the index,
/// `NearestAnswerOutput`'s formats the answers (`NearestAnswerWriter`) and writes them.
/// Batches of a few thousand queries go from one to the other and end early whenever no
/// further line is waiting, so a live producer sees each answer at once, and a file or a fast
/// pipe is answered in writes of 64 KiB. On two cores a stream then takes about the time of
/// reading and the index (measured: formatting and writing are a third of a one-thread stream;
/// see Benchmarks/LOG.md); the index stays on one thread, and only values cross.
///
///     let bad = try NearestStream.run(
///         input: 0, output: 1, index: index, catalog: catalog, query: NearestQuery(limit: 1), json: false
///     ) { line, reason in print("<stdin>:\(line): \(reason)") }
package enum NearestStream {
    /// A batch holds at most this many queries and answers together: large enough that the
    /// hand-overs cost nothing per query, small enough to bound what waits.
    static let batchWeight = 4096

    /// Answers every line of `input`, writing to `output`; returns how many lines could not
    /// be read (each reported through `problem`, on the writing thread, with its 1-based line
    /// number, after the answers before it were written out). On a read error, the answers
    /// before it are written before it is thrown.
    package static func run(
        input: Int32, output: Int32, index: NearestSearch, catalog: LandmarkCatalog, query: NearestQuery, json: Bool,
        problem: @escaping @Sendable (Int, String) -> Void
    ) throws(NearestStreamError) -> Int {
        let answersPerQuery = min(query.limit, max(1, catalog.count))
        let writing = NearestAnswerOutput(catalog: catalog, query: query, json: json, descriptor: output, problem: problem)
        let lines = LineStream(descriptor: input, ownsDescriptor: false, sourceName: "<stdin>")
        var badLines = 0
        var last = NearestAnswerBatch()
        NearestQueryReader.read(lines, queriesPerBatch: max(1, batchWeight / (1 + answersPerQuery))) { batch in
            var batch = batch
            badLines += batch.problems.count
            batch.answer { query.answer($0, in: index) }
            guard !batch.isLast else {
                last = batch
                return false
            }
            // False once stdout failed: reading stops, and `finish` throws the error. At a pause
            // the answers are written before reading on (the next read may wait for long).
            return batch.endsAtPause ? writing.sendAndWait(batch) : writing.send(batch)
        }
        let readError = last.readError
        do { try writing.finish(last) } catch { throw .output(error) }
        if let readError { throw .input(readError) }
        return badLines
    }
}

/// Why `NearestStream.run` stopped: stdin could not be read, or stdout written.
package enum NearestStreamError: LandmarkNearError {
    case input(InputError)
    case output(OutputError)

    package var kind: ErrorKind {
        switch self {
        case .input(let error): return error.kind
        case .output(let error): return error.kind
        }
    }

    package var description: String {
        switch self {
        case .input(let error): return "\(error)"
        case .output(let error): return "stdout: \(error)"
        }
    }
}
