/// Reads a landmark catalog from a file or bytes, detecting its format: a JSON array shaped
/// like the tutorial's `landmarkData.json`, a GeoJSON FeatureCollection of Points, or CSV with
/// a header row (SPEC §1).
///
///     let catalog = try CatalogLoader.load(path: "landmarkData.json")
public enum CatalogLoader {
    /// Reads the catalog at `path`: a file, a pipe, a FIFO or `/dev/stdin` (read once, in full).
    public static func load(path: String) throws(CatalogError) -> LandmarkCatalog {
        let bytes: [UInt8]
        do {
            bytes = try InputFile.read(path: path)
        } catch {
            throw CatalogError(error)
        }
        return try parse(bytes, source: path)
    }

    public static func parse(_ bytes: [UInt8], source: String) throws(CatalogError) -> LandmarkCatalog {
        try parse(bytes, source: source, scanning: true)
    }

    /// `scanning: false` takes the full parser alone (the tests compare the two paths).
    package static func parse(_ bytes: [UInt8], source: String, scanning: Bool) throws(CatalogError) -> LandmarkCatalog {
        var start = ByteOrderMark.length(of: bytes)
        while start < bytes.count, ASCIIBlanks.whitespace.contains(bytes[start]) { start += 1 }
        guard start < bytes.count else {
            throw CatalogError(source: source, reason: "is empty")
        }
        // Tutorial JSON: the byte scanner first; it gives up on anything unusual (escapes,
        // nested values, a radius, an entry to refuse), and the full parser then decides, with its errors.
        if scanning, bytes[start] == UInt8(ascii: "["),
            let scanned = bytes.withUnsafeBufferPointer({
                TutorialCatalogScanner.landmarks(in: UnsafeBufferPointer(rebasing: $0[start...]))
            }),
            // A catalog to refuse goes to the full parser, whose problems name their line and column.
            let catalog = try? LandmarkCatalog(scanned, source: source)
        {
            return catalog
        }
        let body = Array(bytes[start...])
        let first = body[0]
        // Every entry's problems are gathered (up to 20 listed), each with its place in the file.
        var problems = CatalogProblems(source: source)
        let landmarks: [Landmark]
        let entries: [Int]
        let locate: (Int) -> String?
        switch first {
        case UInt8(ascii: "["), UInt8(ascii: "{"):
            let json: JSONValue
            do {
                json = try JSONParser.parse(body)
            } catch {
                throw CatalogError(source: source, reason: error.description)
            }
            if case .array(let array) = json {
                (landmarks, entries) = TutorialCatalogFormat.landmarks(from: array, source: source, problems: &problems)
            } else {
                (landmarks, entries) = try GeoJSONCatalogFormat.landmarks(from: json, source: source, problems: &problems)
            }
            // Offsets in `body`; the bytes skipped before it hold no newline only after a BOM.
            let skippedLines = bytes[..<start].filter { $0 == 0x0A }.count
            let offsets = LazyOffsets(body)
            locate = { entry in
                let offsets = offsets.value
                guard entry < offsets.count else { return nil }
                return JSONEntryLocations.lineAndColumn(body, offsets[entry], firstLine: 1 + skippedLines)
            }
        default:
            guard String(validating: body, as: UTF8.self) != nil else {
                throw CatalogError(source: source, reason: "is not valid UTF-8")
            }
            let rows = try CSVCatalogFormat.landmarks(from: body, source: source, problems: &problems)
            landmarks = rows.landmarks
            entries = rows.entries
            let skippedLines = bytes[..<start].filter { $0 == 0x0A }.count
            locate = { entry in entry < rows.lines.count ? "line \(rows.lines[entry] + skippedLines)" : nil }
        }
        return try LandmarkCatalog(landmarks, entries: entries, problems: &problems, locate: locate)
    }
}

/// Entry offsets of a JSON catalog, scanned once and only when a problem needs a location.
private final class LazyOffsets {
    private let body: [UInt8]
    private var computed: [Int]?

    init(_ body: [UInt8]) { self.body = body }

    var value: [Int] {
        if let computed { return computed }
        let offsets = JSONEntryLocations.offsets(in: body)
        computed = offsets
        return offsets
    }
}
