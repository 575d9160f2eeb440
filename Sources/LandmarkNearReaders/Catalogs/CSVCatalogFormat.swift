@_spi(Inlining) import LandmarkNearCore

/// CSV with a header naming the columns: `lat`/`latitude`, `lon`/`lng`/`longitude`, `name`,
/// optional `id` (else rows are numbered 1, 2, ...), `isFavorite`/`favorite`, and the
/// tutorial's text fields (`category`, `city`, `state`, `park`, `imageName`), an optional
/// `radius` (metres, or a length such as `2km`; empty for none), and an optional `wkt`: the
/// landmark's place as well-known text (`POLYGON ((lon lat, ...))`, read by GEOS; the latitude
/// and longitude columns may then be left out, or empty).
///
/// Rows are scanned as byte ranges and a cell becomes a String only when a field needs it:
/// the catalog is on `watch`'s start-up path (144k places load in well under 0.1 s). Lines
/// are split by `CSVLine.cells`.
enum CSVCatalogFormat {
    /// The rows read: landmarks, their entry positions and file line numbers (`lines[entry]`);
    /// the problems of the other rows go to `problems`.
    struct Rows {
        package var columns = CatalogColumns()
        /// nil: every row is the entry of its position (none was refused).
        var entries: [Int]? = []
        var lines: [Int] = []
        /// The data rows read, refused ones too.
        var count = 0
        /// The file lines passed, blank ones too.
        var lineCount = 0
    }

    /// Where the header put each field.
    struct Header: Sendable {
        var lat: Int?
        var lon: Int?
        var name: Int
        var wkt: Int?
        var id: Int?, radius: Int?, favorite: Int?, featured: Int?
        var category: Int?, city: Int?, state: Int?, park: Int?, image: Int?
    }

    private typealias Bytes = UnsafeBufferPointer<UInt8>

    /// `bytes` must be valid UTF-8.
    static func landmarks(in bytes: UnsafeBufferPointer<UInt8>, source: String, problems: inout CatalogProblems) throws(CatalogError)
        -> Rows
    {
        let (header, end, line) = try Self.header(in: bytes, source: source)
        return rows(in: bytes, from: end, line: line, header: header, source: source, problems: &problems)
    }

    /// The header row: its fields, the offset after it and its file line.
    static func header(in bytes: UnsafeBufferPointer<UInt8>, source: String) throws(CatalogError) -> (Header, end: Int, line: Int) {
        var rows = RowScanner(bytes: bytes)
        var cells: [Bytes] = []
        guard rows.next(into: &cells) else { throw CatalogError(source: source, reason: "is empty") }
        let names = cells.map { CSVLine.normalizedHeader(text($0)) }
        func column(_ wanted: String...) -> Int? { names.firstIndex(where: wanted.contains) }
        let latColumn = column("lat", "latitude")
        let lonColumn = column("lon", "lng", "longitude")
        let wktColumn = column("wkt")
        guard (latColumn != nil && lonColumn != nil) || wktColumn != nil else {
            throw CatalogError(
                source: source,
                reason:
                    "has no latitude/longitude columns in its header (expected lat or latitude, and lon, lng or longitude; or a wkt column)"
            )
        }
        guard let nameColumn = column("name") else {
            throw CatalogError(source: source, reason: "has no name column in its header")
        }
        let header = Header(
            lat: latColumn, lon: lonColumn, name: nameColumn, wkt: wktColumn, id: column("id"), radius: column("radius"),
            favorite: column("isfavorite", "favorite"), featured: column("isfeatured", "featured"),
            category: column("category"), city: column("city"), state: column("state"), park: column("park"),
            image: column("imagename"))
        return (header, rows.position, rows.line)
    }

    /// The data rows from offset `start` (a line start; `line` lines before it) to the end of
    /// `bytes`, numbered from entry 0 and reserving room for the rows of `reserving` bytes
    /// (the two halves of a split scan read their rows apart, `ParallelCatalogScan`).
    static func rows(
        in bytes: UnsafeBufferPointer<UInt8>, from start: Int, line: Int, header: Header, source: String,
        problems: inout CatalogProblems, reserving: Int? = nil
    ) -> Rows {
        var rows = RowScanner(bytes: bytes, position: start, line: line)
        var cells: [Bytes] = []
        let idColumn = header.id
        let radiusColumn = header.radius
        let favoriteColumn = header.favorite
        let featuredColumn = header.featured
        let textColumns = (
            category: header.category, city: header.city, state: header.state, park: header.park, image: header.image
        )

        var read = Rows()
        // About 43 bytes a row in the usual layout (id, lat, lon, name, flag), 12 of them the name.
        let reserved = reserving ?? bytes.count
        read.columns.reserveCapacity(reserved / 36, textBytes: reserved / 3)
        read.lines.reserveCapacity(reserved / 36)
        var entry = 0
        var shapes: ShapeReader?
        while rows.next(into: &cells) {
            defer { entry += 1 }
            read.lines.append(rows.line)
            do throws(CatalogError) {
                func cell(_ column: Int?) -> Bytes? {
                    guard let column, column < cells.count else { return nil }
                    return cells[column]
                }
                func shown(_ cell: Bytes?) -> String { TerminalText.quoted(text(trimmed(cell)), limit: 40) }
                var id = entry + 1
                if idColumn != nil {
                    guard let parsed = integer(trimmed(cell(idColumn))) else {
                        throw CatalogError(
                            source: source, entry: entry, reason: "has an id that is not an integer (\(shown(cell(idColumn))))")
                    }
                    id = parsed
                }
                func degrees(_ column: Int?, _ name: String) throws(CatalogError) -> Double {
                    let raw = trimmed(cell(column))
                    if raw.isEmpty { throw CatalogError(source: source, entry: entry, id: id, reason: "has no \(name)") }
                    guard let value = DecimalNumber.parse(raw) else {
                        throw CatalogError(
                            source: source, entry: entry, id: id, reason: "has a \(name) that is not a number (\(shown(raw)))")
                    }
                    return value
                }
                var shape: LandmarkShape?
                var coordinate: Coordinate
                if let wkt = cell(header.wkt), !trimmed(wkt).isEmpty {
                    if shapes == nil { shapes = ShapeReader() }
                    let point: Coordinate
                    do throws(ShapeReader.Problem) {
                        switch try shapes!.read(wkt: text(wkt)) {
                        case .point(let given): point = given
                        case .shape(let read, let representative):
                            shape = read
                            point = representative
                        }
                    } catch {
                        throw CatalogError(source: source, entry: entry, id: id, reason: "has a wkt that is refused: \(error.reason)")
                    }
                    // The point stays the one the columns give, when they give one.
                    let given = [header.lat, header.lon].allSatisfy { !trimmed(cell($0)).isEmpty }
                    coordinate =
                        given
                        ? Coordinate(latitude: try degrees(header.lat, "latitude"), longitude: try degrees(header.lon, "longitude"))
                        : point
                } else {
                    coordinate = Coordinate(
                        latitude: try degrees(header.lat, "latitude"),
                        longitude: try degrees(header.lon, "longitude"))
                }
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
                    name: .bytes(cell(header.name) ?? Bytes(start: nil, count: 0)),
                    category: optional(textColumns.category), city: optional(textColumns.city),
                    state: optional(textColumns.state), park: optional(textColumns.park), imageName: optional(textColumns.image),
                    radius: radius)
                if let shape { read.columns.setLastShape(shape) }
                read.entries?.append(entry)
            } catch {
                problems.add(error)
            }
        }
        read.count = entry
        read.lineCount = rows.line
        return read
    }

    /// Hands out the non-blank rows of the file, one at a time, as cells (CR of CRLF removed).
    private struct RowScanner {
        let bytes: Bytes
        var position = 0
        /// The 1-based file line of the row handed out last.
        var line = 0
        let quoted = CSVLine.QuotedCells()

        init(bytes: Bytes, position: Int = 0, line: Int = 0) {
            self.bytes = bytes
            self.position = position
            self.line = line
        }

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
