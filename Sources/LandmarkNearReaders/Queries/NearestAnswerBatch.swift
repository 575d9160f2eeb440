import Dispatch
@_spi(Inlining) import LandmarkNearCore
import LandmarkNearIndex

/// `nearest` lines in input order, as values that cross between a stream's threads
/// (`NearestStream`): the reading thread puts in each query's coordinate and the texts of its
/// two numbers (echoed as given) and the lines that could not be read, each placed between the
/// queries of the lines around it; the index's thread adds the answers (`answer(using:)`); the
/// writing thread formats them (`NearestAnswerOutput`).
///
///     var batch = NearestAnswerBatch()
///     batch.appendQuery(here, latitude: latitudeBytes, longitude: longitudeBytes)
///     batch.appendProblem(line: 7, "latitude 95.0 is outside [-90, 90]")
///     batch.answer { query.answer($0, in: index) }
///     batch.count      // 1: the problem is reported after the first answer
package struct NearestAnswerBatch: Sendable {
    /// A line that could not be read: reported after the answers of the `answersBefore` queries
    /// of the batch before it were written out.
    package struct Problem: Sendable {
        package var answersBefore: Int
        package var line: Int
        package var message: String
    }

    package private(set) var coordinates: [Coordinate] = []
    /// The queries' number texts one after another: query q's latitude ends at
    /// `textEnds[2q]`, its longitude (which follows it) at `textEnds[2q + 1]`.
    package private(set) var texts: [UInt8] = []
    package private(set) var textEnds: [Int] = []
    /// The queries' neighbours, in the order they were asked (`LocalityOrder`): query q's at
    /// `neighborRanges[q]`.
    package private(set) var neighbors: [LandmarkNeighbor] = []
    package private(set) var neighborRanges: [Range<Int>] = []
    package private(set) var problems: [Problem] = []
    /// Set on the stream's last batch: the threads end after it.
    package var isLast = false
    /// Whether the batch ended because no further line was waiting (a live producer's pause,
    /// or the input's end for now): the reader then waits until its answers are written.
    package var endsAtPause = false
    /// Signalled by the writing thread once the batch is written (or dropped after a failed
    /// write): what a reader waiting for it waits on.
    package var written: DispatchSemaphore?
    /// Why reading stopped early (on the last batch): the answers before it are still written.
    package var readError: InputError?

    package init() {}

    /// How many queries the batch holds.
    package var count: Int { coordinates.count }

    package var isEmpty: Bool { coordinates.isEmpty && problems.isEmpty }

    package mutating func appendQuery(_ coordinate: Coordinate, latitude: UnsafeBufferPointer<UInt8>, longitude: UnsafeBufferPointer<UInt8>)
    {
        coordinates.append(coordinate)
        texts.append(contentsOf: latitude)
        textEnds.append(texts.count)
        texts.append(contentsOf: longitude)
        textEnds.append(texts.count)
    }

    package mutating func appendQuery(_ point: QueryPoint) {
        var latitude = point.latitudeText
        var longitude = point.longitudeText
        latitude.withUTF8 { lat in longitude.withUTF8 { lon in appendQuery(point.coordinate, latitude: lat, longitude: lon) } }
    }

    package mutating func appendProblem(line: Int, _ message: String) {
        problems.append(Problem(answersBefore: coordinates.count, line: line, message: message))
    }

    /// Adds every query's answers, from `answers` (`NearestQuery.answer`), in order; the
    /// queries are asked in `LocalityOrder` (neighbours on the map one after another).
    package mutating func answer(using answers: (Coordinate) -> [LandmarkNeighbor]) {
        neighborRanges = [Range<Int>](repeating: 0..<0, count: coordinates.count)
        for query in LocalityOrder.positions(of: coordinates) {
            let start = neighbors.count
            neighbors.append(contentsOf: answers(coordinates[query]))
            neighborRanges[query] = start..<neighbors.count
        }
    }
}
