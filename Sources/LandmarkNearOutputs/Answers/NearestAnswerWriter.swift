@_spi(Inlining) import LandmarkNearCore
@_spi(Inlining) import LandmarkNearGeodesy
import LandmarkNearIndex
import LandmarkNearReaders

/// Writes `landmark-near nearest` answers as bytes into one buffer: the same text as
/// `NearestAnswerFormat` (JSON objects, or table rows under `NearestAnswerFormat.header`),
/// without Strings, Foundation formatting or a write per answer.
///
/// Each landmark's constant part (the JSON prefix up to `"distanceMeters":`, the table's index,
/// id and safe name) is made once, on its first answer. Distances come from the index, within
/// `LandmarkIndex.tolerance(ofDistance:)` of `geod_inverse`'s; where that could change a printed
/// digit (the value lies within the tolerance of a rounding boundary, or of 1000 m where the
/// table switches from m to km), the distance is measured again with `geod_inverse`, so the
/// output is byte for byte what exact distances print.
///
///     let query = NearestQuery(limit: 1)
///     let here = Coordinate(latitude: 34, longitude: -116)
///     let writer = NearestAnswerWriter(catalog: .embedded, query: query, json: true)
///     writer.answer(here, latitude: "34.0", longitude: "-116.0",
///                   neighbors: query.answer(here, in: LandmarkIndex(catalog: .embedded)))
///     writer.bytes   // {"lat":34.0,"lon":-116.0,"nearest":[{"index":0,...,"distanceMeters":15465.793}]}\n
///
/// It only formats: the answers come from the index (`NearestQuery.answer`), so that a stream
/// can query on one thread and format on another (`NearestAnswerOutput`).
package final class NearestAnswerWriter {
    let catalog: LandmarkCatalog
    package let json: Bool
    // `@exclusivity(unchecked)` on the buffers every answer touches: a writer is used from one
    // thread and never re-entrantly, and their dynamic exclusivity checks (`swift_beginAccess`)
    // are measured to matter in a `nearest` stream (see Benchmarks/LOG.md).

    /// The answers written so far (the caller hands them out and empties it).
    @exclusivity(unchecked) package var bytes: [UInt8] = []

    /// Each landmark's constant parts, made on its first answer, one after another in one
    /// array (an array per landmark cost an allocation each, and most answers of a long stream
    /// are a landmark's first): landmark i's prefix is `parts[partStarts[2i] ..< partStarts[2i + 1]]`
    /// and, for the table, its name cell runs on to `nameEnds[i]`. An end of 0 is not made yet
    /// (a made prefix is never empty); the tables take memory only where written (`ZeroedTable`).
    @exclusivity(unchecked) private var parts: [UInt8] = []
    private let partStarts: ZeroedTable
    private let nameEnds: ZeroedTable
    private let emptyReason: [UInt8]

    package init(catalog: LandmarkCatalog, query: NearestQuery, json: Bool) {
        self.catalog = catalog
        self.json = json
        partStarts = ZeroedTable(count: 2 * catalog.count)
        nameEnds = ZeroedTable(count: json ? 0 : catalog.count)
        emptyReason = Array((query.within.map { "no landmark within \($0)" } ?? "no landmark (empty catalog)").utf8)
        bytes.reserveCapacity(1 << 17)
    }

    /// Appends the answer for `coordinate` (its `neighbors`, from `NearestQuery.answer`),
    /// echoing the numbers' texts (ASCII) as given.
    package func answer(_ coordinate: Coordinate, latitude: String, longitude: String, neighbors: [LandmarkNeighbor]) {
        var latitude = latitude
        var longitude = longitude
        latitude.withUTF8 { lat in
            longitude.withUTF8 { lon in
                neighbors.withUnsafeBufferPointer { answer(coordinate, latitude: lat, longitude: lon, neighbors: $0) }
            }
        }
    }

    /// Appends the answer for `coordinate` (its `neighbors`, from `NearestQuery.answer`),
    /// echoing the numbers' texts (ASCII) as given.
    package func answer(
        _ coordinate: Coordinate, latitude: UnsafeBufferPointer<UInt8>, longitude: UnsafeBufferPointer<UInt8>,
        neighbors: UnsafeBufferPointer<LandmarkNeighbor>
    ) {
        if json {
            append(#"{"lat":"#)
            appendJSONNumber(latitude, coordinate.latitude)
            append(#","lon":"#)
            appendJSONNumber(longitude, coordinate.longitude)
            append(#","nearest":["#)
            for (position, neighbor) in neighbors.enumerated() {
                if position > 0 { bytes.append(UInt8(ascii: ",")) }
                appendPrefix(of: neighbor.index)
                var metres = neighbor.distance
                if !DecimalDigits.millimetresAreSettled(metres, error: LandmarkIndex.tolerance(ofDistance: metres)) {
                    metres = exact(coordinate, neighbor.index, metres)
                }
                DecimalDigits.appendMillimetres(metres, to: &bytes)
                bytes.append(UInt8(ascii: "}"))
            }
            append("]}\n")
            return
        }
        guard !neighbors.isEmpty else {
            appendQueryCell(latitude, longitude)
            append("-     ")
            bytes.append(contentsOf: emptyReason)
            bytes.append(0x0A)
            return
        }
        for (rank, neighbor) in neighbors.enumerated() {
            appendQueryCell(latitude, longitude)
            let start = bytes.count
            DecimalDigits.appendInteger(rank + 1, to: &bytes)
            pad(from: start, to: 6)
            appendPrefix(of: neighbor.index)
            var metres = neighbor.distance
            if !distanceTextIsSettled(metres) { metres = exact(coordinate, neighbor.index, metres) }
            appendDistanceText(metres)
            let nameStart = partStarts[2 * neighbor.index + 1]
            bytes.append(contentsOf: parts[nameStart..<nameEnds[neighbor.index]])
        }
    }

    /// Appends the JSON prefix `{"index":I,"id":ID,"name":"…","distanceMeters":`, or the
    /// table's index and id cells (made on the landmark's first answer).
    @inline(__always) private func appendPrefix(of landmark: Int) {
        if partStarts[2 * landmark + 1] == 0 { makeParts(of: landmark) }
        bytes.append(contentsOf: parts[partStarts[2 * landmark]..<partStarts[2 * landmark + 1]])
    }

    private func makeParts(of landmark: Int) {
        let entry = catalog[landmark]
        partStarts[2 * landmark] = parts.count
        if json {
            append(#"{"index":"#, to: &parts)
            DecimalDigits.appendInteger(landmark, to: &parts)
            append(#","id":"#, to: &parts)
            DecimalDigits.appendInteger(entry.id, to: &parts)
            append(#","name":"#, to: &parts)
            // Most names are printable ASCII without quotes or backslashes: their bytes as they are.
            if NearestAnswerWriter.isPlainASCII(entry.name, allowingQuotes: false) {
                parts.append(UInt8(ascii: "\""))
                parts.append(contentsOf: entry.name.utf8)
                parts.append(UInt8(ascii: "\""))
            } else {
                var text = ""
                JSONWriter.appendString(entry.name, to: &text)
                parts.append(contentsOf: text.utf8)
            }
            append(#","distanceMeters":"#, to: &parts)
            partStarts[2 * landmark + 1] = parts.count
        } else {
            let start = parts.count
            DecimalDigits.appendInteger(landmark, to: &parts)
            NearestAnswerWriter.pad(&parts, from: start, to: 8)
            let id = parts.count
            DecimalDigits.appendInteger(entry.id, to: &parts)
            NearestAnswerWriter.pad(&parts, from: id, to: 12)
            partStarts[2 * landmark + 1] = parts.count
            if NearestAnswerWriter.isPlainASCII(entry.name, allowingQuotes: true) {
                parts.append(contentsOf: entry.name.utf8)
            } else {
                parts.append(contentsOf: TerminalText.safe(entry.name).utf8)
            }
            parts.append(0x0A)
            nameEnds[landmark] = parts.count
        }
    }

    /// Whether every byte of `text` is printable ASCII (and, unless `allowingQuotes`, neither
    /// `"` nor `\`): text that JSON and the terminal take as it is.
    private static func isPlainASCII(_ text: String, allowingQuotes: Bool) -> Bool {
        for byte in text.utf8 {
            guard byte >= 0x20 && byte < 0x7F else { return false }
            if !allowingQuotes && (byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")) { return false }
        }
        return true
    }

    @inline(__always) private func append(_ text: StaticString, to out: inout [UInt8]) {
        out.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// A place's distance is already measured to its own tolerance (`GeodesicShape`, 1 mm):
    /// its point is not where it is measured from.
    private func exact(_ coordinate: Coordinate, _ landmark: Int, _ measured: Double) -> Double {
        if catalog.hasShapes, catalog.shape(at: landmark) != nil { return measured }
        return Geodesic.wgs84.distance(from: coordinate, to: catalog.coordinate(at: landmark))
    }

    /// "15.596 km (9.691 mi)", or "812.345 m (0.505 mi)" under a kilometre, padded to 29.
    private func appendDistanceText(_ metres: Double) {
        let start = bytes.count
        if metres < 1000 {
            DecimalDigits.appendFixed3(metres, to: &bytes)
            append(" m (")
        } else {
            DecimalDigits.appendFixed3(metres / 1000, to: &bytes)
            append(" km (")
        }
        DecimalDigits.appendFixed3(metres / 1609.344, to: &bytes)
        append(" mi)")
        pad(from: start, to: 29)
    }

    private func distanceTextIsSettled(_ metres: Double) -> Bool {
        let tolerance = LandmarkIndex.tolerance(ofDistance: metres)
        return abs(metres - 1000) > tolerance
            && DecimalDigits.fixed3IsSettled(metres < 1000 ? metres : metres / 1000, error: metres < 1000 ? tolerance : tolerance / 1000)
            && DecimalDigits.fixed3IsSettled(metres / 1609.344, error: tolerance / 1609.344)
    }

    /// `lat,lon` as given, padded to 25 (the texts are ASCII digits and signs, already safe).
    private func appendQueryCell(_ latitude: UnsafeBufferPointer<UInt8>, _ longitude: UnsafeBufferPointer<UInt8>) {
        let start = bytes.count
        bytes.append(contentsOf: latitude)
        bytes.append(UInt8(ascii: ","))
        bytes.append(contentsOf: longitude)
        pad(from: start, to: 25)
    }

    /// The number's text when it is a JSON number, else `JSONWriter.number(value)` (`+34` -> `34`).
    private func appendJSONNumber(_ text: UnsafeBufferPointer<UInt8>, _ value: Double) {
        if JSONNumberGrammar.end(ofNumberIn: text, from: 0) == text.count {
            bytes.append(contentsOf: text)
        } else {
            append(JSONWriter.number(value))
        }
    }

    @inline(__always) private func append(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    private func append(_ text: String) { bytes.append(contentsOf: text.utf8) }

    /// `NearestAnswerFormat.pad`: spaces up to `width` bytes from `start`, or one space when
    /// the cell is already that wide.
    @inline(__always) private func pad(from start: Int, to width: Int) {
        NearestAnswerWriter.pad(&bytes, from: start, to: width)
    }

    @inline(__always) static func pad(_ bytes: inout [UInt8], from start: Int, to width: Int) {
        let used = bytes.count - start
        if used >= width {
            bytes.append(0x20)
        } else {
            for _ in used..<width { bytes.append(0x20) }
        }
    }
}
