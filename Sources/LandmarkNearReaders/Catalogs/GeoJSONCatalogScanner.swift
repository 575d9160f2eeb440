@_spi(Inlining) import LandmarkNearCore

/// The fast path of GeoJSON catalogs (`{"type": "FeatureCollection", "features": [{"type":
/// "Feature", "geometry": {"type": "Point", "coordinates": [lon, lat]}, "properties": {"id":
/// 1, "name": …}}, …]}`): one pass over the bytes into the catalog's columns, as
/// `TutorialCatalogScanner` does for the tutorial shape (the parser's tree costs a load a large
/// share of its time and memory; see Benchmarks/LOG.md).
///
/// It returns nil wherever `GeoJSONCatalogFormat` over `JSONParser`'s tree might answer
/// otherwise or refuse: bad syntax, a second `features` member, a feature that is not an
/// object or has no Point geometry with two numbers, an id or name it would refuse, a
/// `radius`; the loader then takes the full parser with its errors.
///
/// `head` and `tail` are the two halves of a scan split at a seam (`ParallelCatalogScan`).
///
///     GeoJSONCatalogScanner.columns(in: bytes)   // CatalogColumns or nil
enum GeoJSONCatalogScanner {
    typealias Bytes = UnsafeBufferPointer<UInt8>

    static func columns(in body: Bytes, file: MappedFile? = nil) -> CatalogColumns? {
        guard case .whole(let columns) = head(in: body, file: file, seam: nil) else { return nil }
        return columns
    }

    /// What the root object's members said so far: the features (read once), and the last
    /// `type` (nil: none yet).
    private struct Root {
        var columns: CatalogColumns?
        var isCollection: Bool?
    }

    /// The scan from the start of the document. With a `seam` (an offset in `body`), it stops
    /// where a feature starts exactly there (`.atSeam`, with the root's `type` so far);
    /// otherwise it reads the whole document.
    static func head(in body: Bytes, file: MappedFile?, seam: Int?) -> CatalogScanHead<Bool?> {
        var scanner = CatalogByteScanner(bytes: body, file: file)
        var root = Root()
        scanner.skipSpace()
        guard scanner.take(UInt8(ascii: "{")) else { return .whole(nil) }
        scanner.skipSpace()
        if scanner.take(UInt8(ascii: "}")) { return .whole(nil) }
        switch members(&scanner, &root, seam: seam) {
        case .refused: return .whole(nil)
        case .atSeam: return .atSeam(root.columns ?? CatalogColumns(), root.isCollection)
        case .closed: break
        }
        scanner.skipSpace()
        guard scanner.atEnd, root.isCollection == true else { return .whole(nil) }
        return .whole(root.columns)
    }

    /// The scan from `seam` (where a feature starts) to the end of the document: the rest of
    /// `features`, numbered from 0, then the rest of the root object; its state is the last
    /// `type` there (nil: none). nil where the whole scan would give up there.
    static func tail(in body: Bytes, from seam: Int, file: MappedFile?) -> CatalogScanTail<Bool?>? {
        var scanner = CatalogByteScanner(bytes: body, file: file, from: seam)
        var columns = CatalogColumns()
        columns.reserveCapacity((body.count - seam) / 120, textBytes: (body.count - seam) / 5)
        var defaultIDs: [Int]? = []
        guard case .closed = entries(&scanner, into: &columns, defaultIDs: &defaultIDs, seam: nil) else { return nil }
        // The members after `features`: a second `features` is the parser's to refuse.
        var root = Root(columns: columns, isCollection: nil)
        guard let more = scanner.next(closing: UInt8(ascii: "}")) else { return nil }
        if more {
            guard case .closed = members(&scanner, &root, seam: nil) else { return nil }
        }
        scanner.skipSpace()
        guard scanner.atEnd, let defaultIDs, let columns = root.columns else { return nil }
        return CatalogScanTail(columns: columns, defaultIDs: defaultIDs, state: root.isCollection)
    }

    /// The root object's members, after its `{` or a `,`, to its closing `}` (or the seam,
    /// inside `features`).
    private static func members(_ scanner: inout CatalogByteScanner, _ root: inout Root, seam: Int?) -> CatalogEntriesEnd {
        while true {
            guard let key = scanner.key() else { return .refused }
            if scanner.matches(key, "features") {
                // Twice: the parser's last one counts; leave that to it.
                guard root.columns == nil, scanner.take(UInt8(ascii: "[")) else { return .refused }
                var columns = CatalogColumns()
                // About 150 bytes a feature in the usual layout, 25 of them texts.
                columns.reserveCapacity(scanner.bytes.count / 120, textBytes: scanner.bytes.count / 5)
                scanner.skipSpace()
                if !scanner.take(UInt8(ascii: "]")) {
                    var unrecorded: [Int]? = nil
                    let end = entries(&scanner, into: &columns, defaultIDs: &unrecorded, seam: seam)
                    if case .refused = end { return .refused }
                    root.columns = columns
                    if case .atSeam = end { return .atSeam }
                }
                root.columns = columns
            } else if scanner.matches(key, "type") {
                guard let value = scanner.scalar() else { return .refused }
                root.isCollection = scanner.text(value) == "FeatureCollection"
            } else {
                guard scanner.skipValue() else { return .refused }
            }
            guard let more = scanner.next(closing: UInt8(ascii: "}")) else { return .refused }
            if !more { return .closed }
        }
    }

    /// The features from the start of one to the closing `]`, or to `seam`; `defaultIDs` as
    /// in `TutorialCatalogScanner`.
    private static func entries(
        _ scanner: inout CatalogByteScanner, into columns: inout CatalogColumns, defaultIDs: inout [Int]?, seam: Int?
    ) -> CatalogEntriesEnd {
        while true {
            scanner.skipSpace()
            if scanner.i == seam { return .atSeam }
            scanner.startEntry()
            guard feature(&scanner, index: columns.count, into: &columns, defaultIDs: &defaultIDs) else { return .refused }
            scanner.releaseBehind()
            guard let more = scanner.next(closing: UInt8(ascii: "]")) else { return .refused }
            if !more { return .closed }
        }
    }

    /// One feature as `GeoJSONCatalogFormat` would read it, appended; false when it would
    /// refuse it (or the scanner cannot tell).
    private static func feature(
        _ scanner: inout CatalogByteScanner, index: Int, into columns: inout CatalogColumns, defaultIDs: inout [Int]?
    ) -> Bool {
        var properties = CatalogEntryFields()
        var featureID = CatalogByteScanner.Value.absent
        var position: (longitude: Double, latitude: Double)?
        var shape: LandmarkShape?
        guard scanner.take(UInt8(ascii: "{")) else { return false }
        scanner.skipSpace()
        if !scanner.take(UInt8(ascii: "}")) {
            while true {
                guard let key = scanner.key() else { return false }
                if scanner.matches(key, "geometry") {
                    // Last one wins.
                    position = nil
                    shape = nil
                    if scanner.isAtContainer {
                        guard scanner.bytes[scanner.i] == UInt8(ascii: "{"),
                            let geometry = GeometryScanner.geometry(&scanner)
                        else { return false }
                        switch geometry {
                        case .point(let longitude, let latitude): position = (longitude, latitude)
                        case .shape(let place, let point):
                            shape = place
                            position = (point.longitude, point.latitude)
                        }
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
        if id == nil { defaultIDs?.append(index) }
        guard
            properties.append(
                to: &columns, id: id ?? index + 1, coordinate: Coordinate(latitude: position.latitude, longitude: position.longitude),
                scanner: scanner)
        else { return false }
        if let shape { columns.setLastShape(shape) }
        return true
    }

    /// A feature's `properties`: the tutorial entry's members (`coordinates` and all others
    /// unknown there).
    private static func readProperties(_ scanner: inout CatalogByteScanner, into fields: inout CatalogEntryFields) -> Bool {
        var ignored = false
        return TutorialCatalogScanner.object(&scanner, into: &fields, nested: nil, hasNested: &ignored)
    }
}
