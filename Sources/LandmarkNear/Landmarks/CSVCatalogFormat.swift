/// CSV with a header naming the columns: `lat`/`latitude`, `lon`/`lng`/`longitude`, `name`,
/// optional `id` (else rows are numbered 1, 2, ...), `isFavorite`/`favorite`, and the
/// tutorial's text fields (`category`, `city`, `state`, `park`, `imageName`).
enum CSVCatalogFormat {
    /// `bytes` must be valid UTF-8. Lines are split on bytes (a 144k-row catalog loads in
    /// tens of milliseconds); only quoted lines go through the grapheme-aware splitter.
    static func landmarks(from bytes: [UInt8], source: String) throws(CatalogError) -> [Landmark] {
        var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
            .map { $0.last == 0x0D ? $0.dropLast() : $0 }
        while let last = lines.last, last.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { lines.removeLast() }
        guard let headerLine = lines.first else { throw CatalogError(source: source, reason: "is empty") }
        let header = cells(of: headerLine).map(CSVLine.normalizedHeader)
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
        let text = (category: column("category"), city: column("city"), state: column("state"),
                    park: column("park"), image: column("imagename"))

        var landmarks: [Landmark] = []
        landmarks.reserveCapacity(lines.count)
        var entry = 0
        for line in lines.dropFirst() where !line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) {
            defer { entry += 1 }
            let cells = cells(of: line)
            func cell(_ column: Int?) -> String? {
                guard let column, column < cells.count else { return nil }
                return cells[column]
            }
            var id = entry + 1
            if idColumn != nil {
                let raw = cell(idColumn).map { String($0.trimmingSpacesAndTabs) } ?? ""
                guard let parsed = Int(raw) else {
                    throw CatalogError(source: source, entry: entry, reason: "has an id that is not an integer (\"\(raw.prefix(40))\")")
                }
                id = parsed
            }
            func degrees(_ column: Int, _ name: String) throws(CatalogError) -> Double {
                let raw = cell(column).map { String($0.trimmingSpacesAndTabs) } ?? ""
                if raw.isEmpty { throw CatalogError(source: source, entry: entry, id: id, reason: "has no \(name)") }
                guard let value = Double(raw) else {
                    throw CatalogError(source: source, entry: entry, id: id, reason: "has a \(name) that is not a number (\"\(raw.prefix(40))\")")
                }
                return value
            }
            let coordinate = Coordinate(latitude: try degrees(latColumn, "latitude"),
                                        longitude: try degrees(lonColumn, "longitude"))
            var isFavorite = false
            if let raw = cell(favoriteColumn) {
                guard let flag = CSVLine.boolean(raw) else {
                    throw CatalogError(source: source, entry: entry, id: id, reason: "has a favourite flag that is not true/false/1/0/yes/no (\"\(raw.prefix(40))\")")
                }
                isFavorite = flag
            }
            func optional(_ column: Int?) -> String? {
                guard let value = cell(column), !value.isEmpty else { return nil }
                return value
            }
            landmarks.append(Landmark(
                id: id, name: cell(nameColumn) ?? "", coordinate: coordinate, isFavorite: isFavorite,
                isFeatured: cell(featuredColumn).flatMap(CSVLine.boolean) ?? false,
                category: optional(text.category), city: optional(text.city), state: optional(text.state),
                park: optional(text.park), imageName: optional(text.image)))
        }
        return landmarks
    }

    private static func cells(of line: ArraySlice<UInt8>) -> [String] {
        if line.contains(UInt8(ascii: "\"")) {
            return CSVLine.fields(of: String(decoding: line, as: UTF8.self))
        }
        return line.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
            .map { String(decoding: $0, as: UTF8.self) }
    }
}
