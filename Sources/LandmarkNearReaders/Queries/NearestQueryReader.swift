@_spi(Inlining) import LandmarkNearCore

/// Reads `nearest`'s input lines and turns them into queries, in batches
/// (`NearestAnswerBatch`) that end at `queriesPerBatch` queries and unreadable lines or,
/// earlier, whenever no further line is waiting (so a live producer's line goes on at once).
/// Lines are read as bytes (`QueryLine`, falling back to `QueryPoint(line:)` for what it does
/// not settle), at most 1 MiB long like watch's. A first line that names the columns (`lat,lon`,
/// `Latitude,Longitude`, `lon,lat`: `QueryHeader`) is a header: skipped, and its order used
/// for the other lines. A line that cannot be read becomes the batch's problem at its place.
///
///     let lines = LineStream(descriptor: 0, ownsDescriptor: false, sourceName: "<stdin>")
///     NearestQueryReader.read(lines, queriesPerBatch: 2048) { batch in
///         print(batch.count, batch.isLast, batch.readError as Any)
///         return true    // false: stop reading
///     }
///
/// (Not on a thread of its own as well, ahead of the index's: reading is a tenth of a stream's
/// time, and on two cores a third thread competes with the other two; see Benchmarks/LOG.md.)
package enum NearestQueryReader {
    /// Reads `lines` into batches, handing each to `deliver` (which returns false to stop).
    package static func read(_ lines: LineStream, queriesPerBatch: Int, deliver: (NearestAnswerBatch) -> Bool) {
        var batch = NearestAnswerBatch()
        var pastFirstLine = false
        var order = QueryPoint.Order.latitudeFirst
        while true {
            if !batch.isEmpty {
                let waiting = lines.hasPendingInput
                // Unreadable lines count too: a run of them is reported as it goes, not gathered.
                if !waiting || batch.count + batch.problems.count >= queriesPerBatch {
                    batch.endsAtPause = !waiting
                    guard deliver(batch) else { return }
                    batch = NearestAnswerBatch()
                }
            }
            let line: LineStream.Line?
            do {
                line = try lines.nextLine()
            } catch {
                batch.readError = error
                break
            }
            guard let line else { break }
            switch line {
            case .overlong(let number):
                batch.appendProblem(line: number, "line longer than \(lines.maximumLineLength) bytes; skipped")
            case .text(let bytes, let number):
                let outcome = QueryLine.scan(bytes, order: order)
                if case .skip = outcome { continue }
                if !pastFirstLine {
                    // A first line naming the columns (`lat,lon`, `"Longitude","Latitude"`) is a
                    // header: skipped, and its order kept for the lines after it.
                    pastFirstLine = true
                    if case .undecided = outcome, let named = QueryHeader.order(of: bytes) {
                        order = named
                        continue
                    }
                }
                switch outcome {
                case .skip:
                    continue
                case .point(let coordinate, let latitude, let longitude):
                    batch.appendQuery(
                        coordinate, latitude: UnsafeBufferPointer(rebasing: bytes[latitude]),
                        longitude: UnsafeBufferPointer(rebasing: bytes[longitude]))
                case .undecided:
                    do {
                        guard let point = try QueryPoint(line: String(decoding: bytes, as: UTF8.self), order: order) else { continue }
                        batch.appendQuery(point)
                    } catch {
                        batch.appendProblem(line: number, error.description)
                    }
                }
            }
        }
        batch.isLast = true
        _ = deliver(batch)
    }
}
