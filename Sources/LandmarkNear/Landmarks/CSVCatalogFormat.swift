/// CSV with a header naming the columns: `lat`/`latitude`, `lon`/`lng`/`longitude`, `name`,
/// optional `id` (else rows are numbered 1, 2, ...), `isFavorite`/`favorite`, and the
/// tutorial's text fields (`category`, `city`, `state`, `park`, `imageName`).
///
/// Cells stay bytes until a field needs them (a 144k-row catalog loads in a few tens of
/// milliseconds: it is on `watch`'s start-up path); only quoted lines go through `CSVLine`.
enum CSVCatalogFormat {
    typealias Cell = ArraySlice<UInt8>

    /// `bytes` must be valid UTF-8.
    static func landmarks(from bytes: [UInt8], source: String) throws(CatalogError) -> [Landmark] {
        var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
            .map { $0.last == 0x0D ? $0.dropLast() : $0 }
        while let last = lines.last, isBlank(last) { lines.removeLast() }
        guard let headerLine = lines.first else { throw CatalogError(source: source, reason: "is empty") }
        let header = cells(of: headerLine).map { CSVLine.normalizedHeader(text($0)) }
        func column(_ names: String...) -> Int? { header.firstIndex(where: names.contains) }
        guard let latColumn = column("lat", "latitude"), let lonColumn = column("lon", "lng", "longitude") else {
            throw CatalogError(source: source, reason: "has no latitude/longitude columns in its header (expected lat or latitude, and lon, lng or longitude)")
        }
        guard let nameColumn = column("name") else {
            throw CatalogError(source: source, reason: "has no name column in its header")
        }
        let idColumn = column("id")
        let favoriteColumn = column("isfavorite", "favorite")
        let featuredColumn = column("isfeatured", "featured")
        let textColumns = (category: column("category"), city: column("city"), state: column("state"),
                           park: column("park"), image: column("imagename"))

        var landmarks: [Landmark] = []
        landmarks.reserveCapacity(lines.count)
        var entry = 0
        for line in lines.dropFirst() where !isBlank(line) {
            defer { entry += 1 }
            let cells = cells(of: line)
            func cell(_ column: Int?) -> Cell? {
                guard let column, column < cells.count else { return nil }
                return cells[column]
            }
            func shown(_ cell: Cell?) -> String { "\"" + String(text(trimmed(cell ?? [])).prefix(40)) + "\"" }
            var id = entry + 1
            if idColumn != nil {
                guard let parsed = Int(text(trimmed(cell(idColumn) ?? []))) else {
                    throw CatalogError(source: source, entry: entry, reason: "has an id that is not an integer (\(shown(cell(idColumn))))")
                }
                id = parsed
            }
            func degrees(_ column: Int, _ name: String) throws(CatalogError) -> Double {
                let raw = trimmed(cell(column) ?? [])
                if raw.isEmpty { throw CatalogError(source: source, entry: entry, id: id, reason: "has no \(name)") }
                guard let value = Array(raw).withUnsafeBufferPointer({ DecimalNumber.parse($0) }) else {
                    throw CatalogError(source: source, entry: entry, id: id, reason: "has a \(name) that is not a number (\(shown(raw)))")
                }
                return value
            }
            let coordinate = Coordinate(latitude: try degrees(latColumn, "latitude"),
                                        longitude: try degrees(lonColumn, "longitude"))
            var isFavorite = false
            if let raw = cell(favoriteColumn) {
                guard let flag = CSVLine.boolean(text(raw)) else {
                    throw CatalogError(source: source, entry: entry, id: id, reason: "has a favourite flag that is not true/false/1/0/yes/no (\(shown(raw)))")
                }
                isFavorite = flag
            }
            func optional(_ column: Int?) -> String? {
                guard let value = cell(column), !value.isEmpty else { return nil }
                return text(value)
            }
            landmarks.append(Landmark(
                id: id, name: cell(nameColumn).map(text) ?? "", coordinate: coordinate, isFavorite: isFavorite,
                isFeatured: cell(featuredColumn).flatMap { CSVLine.boolean(text($0)) } ?? false,
                category: optional(textColumns.category), city: optional(textColumns.city),
                state: optional(textColumns.state), park: optional(textColumns.park), imageName: optional(textColumns.image)))
        }
        return landmarks
    }

    private static func cells(of line: Cell) -> [Cell] {
        if line.contains(UInt8(ascii: "\"")) {
            return CSVLine.fields(of: text(line)).map { Cell($0.utf8) }
        }
        return line.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
    }

    private static func text(_ cell: Cell) -> String { String(decoding: cell, as: UTF8.self) }

    private static func isBlank(_ bytes: Cell) -> Bool { bytes.allSatisfy { $0 == 0x20 || $0 == 0x09 } }

    private static func trimmed(_ cell: Cell) -> Cell {
        guard let first = cell.firstIndex(where: { $0 != 0x20 && $0 != 0x09 }),
              let last = cell.lastIndex(where: { $0 != 0x20 && $0 != 0x09 }) else { return [] }
        return cell[first...last]
    }
}
