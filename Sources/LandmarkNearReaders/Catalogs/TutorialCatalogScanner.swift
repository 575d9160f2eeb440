@_spi(Inlining) import LandmarkNearCore

/// The fast path of tutorial-JSON catalogs (`[{"id": 1001, "name": …, "coordinates":
/// {"latitude": …, "longitude": …}, …}, …]`): one pass over the bytes straight into the
/// catalog's columns, without the document tree of `JSONParser` (which cost most of the load
/// and several times the file's size in memory).
///
/// Like the NDJSON fix scanner, it decides nothing it is not sure of: it returns nil as soon as
/// the file is anything but a valid array of objects whose known members are scalars (unknown
/// members may hold anything valid; `coordinates` an object), or an entry would be refused (no
/// name, an id or a coordinate of the wrong type, a `radius`), and the loader then takes the
/// full parser, which gives the same entries or the error with its message. Where it returns
/// landmarks they are those of `TutorialCatalogFormat` over `JSONParser`'s tree
/// (`CatalogReaderEquivalenceTests`): a key given twice counts by its last value, `latitude`
/// wins over `lat`, `isFavorite` over `favorite`, and a `coordinates` that is not an object
/// means the entry's own keys.
///
/// `head` and `tail` are the two halves of a scan split at a seam (`ParallelCatalogScan`).
///
///     TutorialCatalogScanner.columns(in: bytes)   // CatalogColumns or nil
enum TutorialCatalogScanner {
    typealias Bytes = UnsafeBufferPointer<UInt8>

    static func columns(in body: Bytes, file: MappedFile? = nil) -> CatalogColumns? {
        guard case .whole(let columns) = head(in: body, file: file, seam: nil) else { return nil }
        return columns
    }

    /// The scan from the start of the document. With a `seam` (an offset in `body`), it stops
    /// where an entry starts exactly there (`.atSeam`); otherwise it reads the whole document.
    static func head(in body: Bytes, file: MappedFile?, seam: Int?) -> CatalogScanHead<Void> {
        var scanner = CatalogByteScanner(bytes: body, file: file)
        var columns = CatalogColumns()
        // About 190 bytes an entry in the tutorial's layout, 40 of them texts (all of the
        // document's: the second half of a split scan is appended here).
        columns.reserveCapacity(body.count / 160, textBytes: body.count / 4)
        scanner.skipSpace()
        guard scanner.take(UInt8(ascii: "[")) else { return .whole(nil) }
        scanner.skipSpace()
        if !scanner.take(UInt8(ascii: "]")) {
            var unrecorded: [Int]? = nil
            switch entries(&scanner, into: &columns, defaultIDs: &unrecorded, seam: seam) {
            case .refused: return .whole(nil)
            case .atSeam: return .atSeam(columns, ())
            case .closed: break
            }
        }
        scanner.skipSpace()
        return .whole(scanner.atEnd ? columns : nil)
    }

    /// The scan from `seam` (where an entry starts) to the end of the document: the entries
    /// numbered from 0, nil where the whole scan would give up there.
    static func tail(in body: Bytes, from seam: Int, file: MappedFile?) -> CatalogScanTail<Void>? {
        var scanner = CatalogByteScanner(bytes: body, file: file, from: seam)
        var columns = CatalogColumns()
        columns.reserveCapacity((body.count - seam) / 160, textBytes: (body.count - seam) / 4)
        var defaultIDs: [Int]? = []
        guard case .closed = entries(&scanner, into: &columns, defaultIDs: &defaultIDs, seam: nil) else { return nil }
        scanner.skipSpace()
        guard scanner.atEnd, let defaultIDs else { return nil }
        return CatalogScanTail(columns: columns, defaultIDs: defaultIDs, state: ())
    }

    /// The array's entries from the start of one to the closing `]`, or to `seam`. An entry
    /// without an id has its position's (`index + 1`); `defaultIDs`, when not nil, gets those
    /// positions, for the second half's numbers to be moved up by the first half's count.
    private static func entries(
        _ scanner: inout CatalogByteScanner, into columns: inout CatalogColumns, defaultIDs: inout [Int]?, seam: Int?
    ) -> CatalogEntriesEnd {
        while true {
            scanner.skipSpace()
            if scanner.i == seam { return .atSeam }
            scanner.startEntry()
            guard entry(&scanner, index: columns.count, into: &columns, defaultIDs: &defaultIDs) else { return .refused }
            scanner.releaseBehind()
            guard let more = scanner.next(closing: UInt8(ascii: "]")) else { return .refused }
            if !more { return .closed }
        }
    }

    /// The members of an object starting at `{`, into `fields`; `nested` gets the
    /// `coordinates` member when it is an object (whose own `coordinates` is ignored like any
    /// unknown key).
    static func object(
        _ scanner: inout CatalogByteScanner, into fields: inout CatalogEntryFields,
        nested: UnsafeMutablePointer<CatalogEntryFields>?, hasNested: inout Bool
    ) -> Bool {
        guard scanner.take(UInt8(ascii: "{")) else { return false }
        scanner.skipSpace()
        if scanner.take(UInt8(ascii: "}")) { return true }
        while true {
            guard let key = scanner.key() else { return false }
            let keyBytes = Bytes(rebasing: scanner.bytes[key])
            let isCoordinates = nested != nil && scanner.matches(key, "coordinates")
            // A place beside the point (`geometry`) is the full reader's (it reads it with GEOS).
            if nested != nil, scanner.matches(key, "geometry") { return false }
            if scanner.isAtContainer {
                if isCoordinates, scanner.bytes[scanner.i] == UInt8(ascii: "{") {
                    // A later "coordinates" replaces an earlier one, as the parser's last-wins lookup does.
                    nested!.pointee = CatalogEntryFields()
                    var ignored = false
                    guard object(&scanner, into: &nested!.pointee, nested: nil, hasNested: &ignored) else { return false }
                    hasNested = true
                } else {
                    // An unknown member may hold anything; a known one that is not a scalar
                    // is the full path's to judge.
                    var probe = CatalogEntryFields()
                    if probe.set(keyBytes, .null) { return false }
                    if isCoordinates { hasNested = false }
                    guard scanner.skipValue() else { return false }
                }
            } else {
                guard let value = scanner.scalar() else { return false }
                // A landmark's own radius (docs/reference/catalogs.md) is the full reader's to interpret.
                if scanner.matches(key, "radius") { return false }
                if isCoordinates { hasNested = false }  // not an object: the entry's own keys count
                fields.set(keyBytes, value)
            }
            guard let more = scanner.next(closing: UInt8(ascii: "}")) else { return false }
            if !more { return true }
        }
    }

    /// One entry as `TutorialCatalogFormat` would read it, appended; false when it would
    /// refuse it (or the scanner cannot tell).
    @inline(__always)
    static func entry(
        _ scanner: inout CatalogByteScanner, index: Int, into columns: inout CatalogColumns, defaultIDs: inout [Int]?
    ) -> Bool {
        var fields = CatalogEntryFields()
        var coordinates = CatalogEntryFields()
        var hasCoordinates = false
        guard object(&scanner, into: &fields, nested: &coordinates, hasNested: &hasCoordinates),
            case .some(let id) = scanner.id(fields.id)
        else { return false }
        let latitude: Double?
        let longitude: Double?
        if hasCoordinates {
            latitude = degrees(coordinates.latitude, coordinates.lat)
            longitude = degrees(coordinates.longitude, coordinates.lon, coordinates.lng)
        } else {
            latitude = degrees(fields.latitude, fields.lat)
            longitude = degrees(fields.longitude, fields.lon, fields.lng)
        }
        guard let latitude, let longitude else { return false }
        if id == nil { defaultIDs?.append(index) }
        return fields.append(
            to: &columns, id: id ?? index + 1, coordinate: Coordinate(latitude: latitude, longitude: longitude), scanner: scanner)
    }

    /// A number (the first of the aliases present); nil for anything the full path may refuse.
    /// (Fixed arities: a variadic list would allocate an array per call.)
    @inline(__always)
    static func degrees(_ first: CatalogEntryFields.Value, _ second: CatalogEntryFields.Value, _ third: CatalogEntryFields.Value = .absent)
        -> Double?
    {
        if case .absent = first {
            if case .absent = second { return degrees(third) }
            return degrees(second)
        }
        return degrees(first)
    }

    @inline(__always)
    static func degrees(_ value: CatalogEntryFields.Value) -> Double? {
        if case .number(let d) = value { return d }
        return nil
    }
}
