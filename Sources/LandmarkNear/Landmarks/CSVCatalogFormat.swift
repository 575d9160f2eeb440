/// CSV with a header naming the columns: `lat`/`latitude`, `lon`/`lng`/`longitude`, `name`,
/// optional `id` (else rows are numbered 1, 2, ...), `isFavorite`/`favorite`, and the
/// tutorial's text fields (`category`, `city`, `state`, `park`, `imageName`), and an optional
/// `radius` (metres, or a length such as `2km`; empty for none).
///
/// Rows are scanned as byte ranges and a cell becomes a String only when a field needs it:
/// the catalog is on `watch`'s start-up path (144k places load in well under 0.1 s). Lines
/// are split by `CSVLine.cells`.
enum CSVCatalogFormat {
    /// The rows read: landmarks, their entry positions and file line numbers (`lines[entry]`);
    /// the problems of the other rows go to `problems`.
    struct Rows {
        var columns = CatalogColumns()
        var entries: [Int] = []
        var lines: [Int] = []
    }

    private typealias Bytes = UnsafeBufferPointer<UInt8>

    /// `bytes` must be valid UTF-8.
    static func landmarks(in bytes: UnsafeBufferPointer<UInt8>, source: String, problems: inout CatalogProblems) throws(CatalogError)
        -> Rows
    {
        var rows = RowScanner(bytes: bytes)
        var cells: [Bytes] = []
        guard rows.next(into: &cells) else { throw CatalogError(source: source, reason: "is empty") }
        let header = cells.map { CSVLine.normalizedHeader(text($0)) }
        func column(_ names: String...) -> Int? { header.firstIndex(where: names.contains) }
        guard let latColumn = column("lat", "latitude"), let lonColumn = column("lon", "lng", "longitude") else {
            throw CatalogError(
                source: source,
                reason: "has no latitude/longitude columns in its header (expected lat or latitude, and lon, lng or longitude)")
        }
        guard let nameColumn = column("name") else {
            throw CatalogError(source: source, reason: "has no name column in its header")
        }
        let idColumn = column("id")
        let radiusColumn = column("radius")
        let favoriteColumn = column("isfavorite", "favorite")
        let featuredColumn = column("isfeatured", "featured")
        let textColumns = (
            category: column("category"), city: column("city"), state: column("state"),
            park: column("park"), image: column("imagename")
        )

        var read = Rows()
        // About 43 bytes a row in the usual layout (id, lat, lon, name, flag), 12 of them the name.
        read.columns.reserveCapacity(bytes.count / 36, textBytes: bytes.count / 3)
        var entry = 0
        while rows.next(into: &cells) {
            defer { entry += 1 }
            read.lines.append(rows.line)
            do throws(CatalogError) {
                func cell(_ column: Int?) -> Bytes? {
                    guard let column, column < cells.count else { return nil }
                    return cells[column]
                }
                func shown(_ cell: Bytes?) -> String { "\"" + String(text(trimmed(cell)).prefix(40)) + "\"" }
                var id = entry + 1
                if idColumn != nil {
                    guard let parsed = integer(trimmed(cell(idColumn))) else {
                        throw CatalogError(
                            source: source, entry: entry, reason: "has an id that is not an integer (\(shown(cell(idColumn))))")
                    }
                    id = parsed
                }
                func degrees(_ column: Int, _ name: String) throws(CatalogError) -> Double {
                    let raw = trimmed(cell(column))
                    if raw.isEmpty { throw CatalogError(source: source, entry: entry, id: id, reason: "has no \(name)") }
                    guard let value = DecimalNumber.parse(raw) else {
                        throw CatalogError(
                            source: source, entry: entry, id: id, reason: "has a \(name) that is not a number (\(shown(raw)))")
                    }
                    return value
                }
                let coordinate = Coordinate(
                    latitude: try degrees(latColumn, "latitude"),
                    longitude: try degrees(lonColumn, "longitude"))
                var isFavorite = false
                if let raw = cell(favoriteColumn) {
                    guard let flag = CSVLine.boolean(raw) else {
                        throw CatalogError(
                            source: source, entry: entry, id: id,
                            reason: "has a favourite flag that is not true/false/1/0/yes/no (\(shown(raw)))")
                    }
                    isFavorite = flag
                }
                func optional(_ column: Int?) -> CatalogColumns.Text {
                    guard let value = cell(column), !value.isEmpty else { return .none }
                    return .bytes(value)
                }
                let radius = try cell(radiusColumn).flatMap { cell throws(CatalogError) in
                    try CatalogFields.radius(text: text(cell), entry: entry, id: id, source: source)
                }
                read.columns.append(
                    id: id, coordinate: coordinate, isFavorite: isFavorite,
                    isFeatured: cell(featuredColumn).flatMap { CSVLine.boolean($0) } ?? false,
                    name: .bytes(cell(nameColumn) ?? Bytes(start: nil, count: 0)),
                    category: optional(textColumns.category), city: optional(textColumns.city),
                    state: optional(textColumns.state), park: optional(textColumns.park), imageName: optional(textColumns.image),
                    radius: radius)
                read.entries.append(entry)
            } catch {
                problems.add(error)
            }
        }
        return read
    }

    /// Hands out the non-blank rows of the file, one at a time, as cells (CR of CRLF removed).
    private struct RowScanner {
        let bytes: Bytes
        var position = 0
        /// The 1-based file line of the row handed out last.
        var line = 0
        let quoted = CSVLine.QuotedCells()

        mutating func next(into cells: inout [Bytes]) -> Bool {
            while position < bytes.count {
                let start = position
                var end = start
                while end < bytes.count, bytes[end] != 0x0A { end += 1 }
                position = end + 1
                line += 1
                if end > start, bytes[end - 1] == 0x0D { end -= 1 }
                let line = Bytes(rebasing: bytes[start..<end])
                if ASCIIBlanks.spacesAndTabs.isBlank(line) { continue }
                CSVLine.cells(of: line, into: &cells, quoted: quoted)
                return true
            }
            return false
        }
    }

    private static func text(_ cell: Bytes) -> String { String(decoding: cell, as: UTF8.self) }

    /// `Int(String)` of the cell, without making the String: an optional sign, then digits.
    private static func integer(_ cell: Bytes) -> Int? {
        var digits = cell[...]
        var negative = false
        if let sign = digits.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
            negative = sign == UInt8(ascii: "-")
            digits = digits.dropFirst()
        }
        guard !digits.isEmpty else { return nil }
        var value = 0
        for byte in digits {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            let digit = Int(byte &- UInt8(ascii: "0"))
            let (times, overflow) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = negative ? times.subtractingReportingOverflow(digit) : times.addingReportingOverflow(digit)
            if overflow || overflow2 { return nil }
            value = sum
        }
        return value
    }

    private static func trimmed(_ cell: Bytes?) -> Bytes {
        ASCIIBlanks.spacesAndTabs.trimming(cell ?? Bytes(start: nil, count: 0))
    }
}
