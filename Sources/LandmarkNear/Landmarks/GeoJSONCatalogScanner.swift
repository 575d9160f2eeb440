/// The fast path of GeoJSON catalogs (`{"type": "FeatureCollection", "features": [{"type":
/// "Feature", "geometry": {"type": "Point", "coordinates": [lon, lat]}, "properties": {"id":
/// 1, "name": …}}, …]}`): one pass over the bytes into the catalog's columns, as
/// `TutorialCatalogScanner` does for the tutorial shape (issue 10: 144k features took 652 ms
/// and 169 MiB through the parser's tree).
///
/// It returns nil wherever `GeoJSONCatalogFormat` over `JSONParser`'s tree might answer
/// otherwise or refuse: bad syntax, a second `features` member, a feature that is not an
/// object or has no Point geometry with two numbers, an id or name it would refuse, a
/// `radius`; the loader then takes the full parser with its errors.
///
///     GeoJSONCatalogScanner.columns(in: bytes)   // CatalogColumns or nil
enum GeoJSONCatalogScanner {
    typealias Bytes = UnsafeBufferPointer<UInt8>

    static func columns(in body: Bytes, file: MappedFile? = nil) -> CatalogColumns? {
        var scanner = CatalogByteScanner(bytes: body, file: file)
        var columns: CatalogColumns?
        var isCollection = false
        scanner.skipSpace()
        guard scanner.take(UInt8(ascii: "{")) else { return nil }
        scanner.skipSpace()
        if scanner.take(UInt8(ascii: "}")) { return nil }
        while true {
            guard let key = scanner.key() else { return nil }
            if scanner.matches(key, "features") {
                // Twice: the parser's last one counts; leave that to it.
                guard columns == nil, let read = features(&scanner) else { return nil }
                columns = read
            } else if scanner.matches(key, "type") {
                guard let value = scanner.scalar() else { return nil }
                isCollection = scanner.text(value) == "FeatureCollection"
            } else {
                guard scanner.skipValue() else { return nil }
            }
            guard let more = scanner.next(closing: UInt8(ascii: "}")) else { return nil }
            if !more { break }
        }
        scanner.skipSpace()
        guard scanner.atEnd, isCollection else { return nil }
        return columns
    }

    private static func features(_ scanner: inout CatalogByteScanner) -> CatalogColumns? {
        guard scanner.take(UInt8(ascii: "[")) else { return nil }
        var columns = CatalogColumns()
        // About 150 bytes a feature in the usual layout, 25 of them texts.
        columns.reserveCapacity(scanner.bytes.count / 120, textBytes: scanner.bytes.count / 5)
        scanner.skipSpace()
        if scanner.take(UInt8(ascii: "]")) { return columns }
        while true {
            scanner.skipSpace()
            scanner.startEntry()
            guard feature(&scanner, index: columns.count, into: &columns) else { return nil }
            scanner.releaseBehind()
            guard let more = scanner.next(closing: UInt8(ascii: "]")) else { return nil }
            if !more { return columns }
        }
    }

    /// One feature as `GeoJSONCatalogFormat` would read it, appended; false when it would
    /// refuse it (or the scanner cannot tell).
    private static func feature(_ scanner: inout CatalogByteScanner, index: Int, into columns: inout CatalogColumns) -> Bool {
        var properties = CatalogEntryFields()
        var featureID = CatalogByteScanner.Value.absent
        var position: (longitude: Double, latitude: Double)?
        guard scanner.take(UInt8(ascii: "{")) else { return false }
        scanner.skipSpace()
        if !scanner.take(UInt8(ascii: "}")) {
            while true {
                guard let key = scanner.key() else { return false }
                if scanner.matches(key, "geometry") {
                    // Last one wins: a geometry that is not a Point leaves none.
                    position = nil
                    if scanner.isAtContainer {
                        guard scanner.bytes[scanner.i] == UInt8(ascii: "{"), let point = point(&scanner) else { return false }
                        position = point
                    } else {
                        guard scanner.scalar() != nil else { return false }
                    }
                } else if scanner.matches(key, "properties") {
                    properties = CatalogEntryFields()
                    if scanner.isAtContainer {
                        guard scanner.bytes[scanner.i] == UInt8(ascii: "{"), readProperties(&scanner, into: &properties)
                        else { return false }
                    } else {
                        guard scanner.scalar() != nil else { return false }
                    }
                } else if scanner.matches(key, "id") {
                    guard !scanner.isAtContainer, let value = scanner.scalar() else { return false }
                    featureID = value
                } else {
                    guard scanner.skipValue() else { return false }
                }
                guard let more = scanner.next(closing: UInt8(ascii: "}")) else { return false }
                if !more { break }
            }
        }
        // `properties["id"] ?? object["id"]`: a null id in the properties still counts as given.
        let given: CatalogByteScanner.Value
        if case .absent = properties.id { given = featureID } else { given = properties.id }
        guard case .some(let id) = scanner.id(given), let position else { return false }
        return properties.append(
            to: &columns, id: id ?? index + 1, coordinate: Coordinate(latitude: position.latitude, longitude: position.longitude),
            scanner: scanner)
    }

    /// A feature's `properties`: the tutorial entry's members (`coordinates` and all others
    /// unknown there).
    private static func readProperties(_ scanner: inout CatalogByteScanner, into fields: inout CatalogEntryFields) -> Bool {
        var ignored = false
        return TutorialCatalogScanner.object(&scanner, into: &fields, nested: nil, hasNested: &ignored)
    }

    /// A geometry object: its position when it is a Point with at least two numbers; nil for
    /// any other (the feature is then refused, by the full path).
    private static func point(_ scanner: inout CatalogByteScanner) -> (longitude: Double, latitude: Double)? {
        guard scanner.take(UInt8(ascii: "{")) else { return nil }
        var isPoint = false
        var position: (Double, Double)?
        scanner.skipSpace()
        if scanner.take(UInt8(ascii: "}")) { return nil }
        while true {
            guard let key = scanner.key() else { return nil }
            if scanner.matches(key, "type") {
                guard !scanner.isAtContainer, let value = scanner.scalar() else { return nil }
                isPoint = scanner.text(value) == "Point"
            } else if scanner.matches(key, "coordinates") {
                guard let read = numbers(&scanner) else { return nil }
                position = read
            } else {
                guard scanner.skipValue() else { return nil }
            }
            guard let more = scanner.next(closing: UInt8(ascii: "}")) else { return nil }
            if !more { break }
        }
        guard isPoint, let position else { return nil }
        return position
    }

    /// `[number, number, …]`: the first two (an altitude or more after them is read and ignored).
    private static func numbers(_ scanner: inout CatalogByteScanner) -> (Double, Double)? {
        guard scanner.take(UInt8(ascii: "[")) else { return nil }
        var values: (Double, Double) = (0, 0)
        var count = 0
        scanner.skipSpace()
        if scanner.take(UInt8(ascii: "]")) { return nil }
        while true {
            scanner.skipSpace()
            if count < 2 {
                guard case .number(let d)? = scanner.scalar() else { return nil }
                if count == 0 { values.0 = d } else { values.1 = d }
            } else {
                guard scanner.skipValue() else { return nil }
            }
            count += 1
            guard let more = scanner.next(closing: UInt8(ascii: "]")) else { return nil }
            if !more { break }
        }
        return count >= 2 ? values : nil
    }
}
