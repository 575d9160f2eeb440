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
///     let writer = NearestAnswerWriter(catalog: .embedded, index: LandmarkIndex(catalog: .embedded),
///                                      query: NearestQuery(limit: 1), json: true)
///     writer.answer(Coordinate(latitude: 34, longitude: -116), latitude: "34.0", longitude: "-116.0")
///     writer.bytes   // {"lat":34.0,"lon":-116.0,"nearest":[{"index":0,...,"distanceMeters":15465.793}]}\n
package final class NearestAnswerWriter {
    let catalog: LandmarkCatalog
    let index: LandmarkIndex
    let query: NearestQuery
    package let json: Bool
    /// The answers written so far (the caller hands them out and empties it).
    package var bytes: [UInt8] = []

    private var prefixes: [[UInt8]]
    private var names: [[UInt8]]
    private let radius: Double
    private let emptyReason: [UInt8]

    package init(catalog: LandmarkCatalog, index: LandmarkIndex, query: NearestQuery, json: Bool) {
        self.catalog = catalog
        self.index = index
        self.query = query
        self.json = json
        prefixes = Array(repeating: [], count: catalog.count)
        names = json ? [] : Array(repeating: [], count: catalog.count)
        radius = query.within?.meters ?? .infinity
        emptyReason = Array((query.within.map { "no landmark within \($0)" } ?? "no landmark (empty catalog)").utf8)
        bytes.reserveCapacity(1 << 17)
    }

    /// Appends the answer for `coordinate`, echoing the numbers' texts (ASCII) as given.
    package func answer(_ coordinate: Coordinate, latitude: String, longitude: String) {
        var latitude = latitude
        var longitude = longitude
        latitude.withUTF8 { lat in longitude.withUTF8 { lon in answer(coordinate, latitude: lat, longitude: lon) } }
    }

    /// Appends the answer for `coordinate`, echoing the numbers' texts (ASCII) as given.
    package func answer(_ coordinate: Coordinate, latitude: UnsafeBufferPointer<UInt8>, longitude: UnsafeBufferPointer<UInt8>) {
        // Landmarks with a radius of their own (SPEC 1) need the query's per-landmark filter.
        let neighbors =
            query.ownRadii.isEmpty
            ? index.nearest(to: coordinate, limit: query.limit, within: radius) : query.answer(coordinate, in: index)
        if json {
            append(#"{"lat":"#)
            appendJSONNumber(latitude, coordinate.latitude)
            append(#","lon":"#)
            appendJSONNumber(longitude, coordinate.longitude)
            append(#","nearest":["#)
            for (position, neighbor) in neighbors.enumerated() {
                if position > 0 { bytes.append(UInt8(ascii: ",")) }
                bytes.append(contentsOf: prefix(of: neighbor.index))
                var metres = neighbor.distance
                if !DecimalDigits.millimetresAreSettled(metres, error: LandmarkIndex.tolerance(ofDistance: metres)) {
                    metres = exact(coordinate, neighbor.index)
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
            bytes.append(contentsOf: prefix(of: neighbor.index))
            var metres = neighbor.distance
            if !distanceTextIsSettled(metres) { metres = exact(coordinate, neighbor.index) }
            appendDistanceText(metres)
            bytes.append(contentsOf: names[neighbor.index])
        }
    }

    /// The JSON prefix `{"index":I,"id":ID,"name":"…","distanceMeters":`, or the table's
    /// index and id cells.
    private func prefix(of landmark: Int) -> [UInt8] {
        if !prefixes[landmark].isEmpty { return prefixes[landmark] }
        let entry = catalog[landmark]
        var made: [UInt8] = []
        if json {
            var text = "{\"index\":\(landmark),\"id\":\(entry.id),\"name\":"
            JSONWriter.appendString(entry.name, to: &text)
            text += ",\"distanceMeters\":"
            made = Array(text.utf8)
        } else {
            made = Array(String(landmark).utf8)
            NearestAnswerWriter.pad(&made, from: 0, to: 8)
            let id = made.count
            made += Array(String(entry.id).utf8)
            NearestAnswerWriter.pad(&made, from: id, to: 12)
            names[landmark] = Array(TerminalText.safe(entry.name).utf8) + [0x0A]
        }
        prefixes[landmark] = made
        return made
    }

    private func exact(_ coordinate: Coordinate, _ landmark: Int) -> Double {
        Geodesic.wgs84.distance(from: coordinate, to: catalog[landmark].coordinate)
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
