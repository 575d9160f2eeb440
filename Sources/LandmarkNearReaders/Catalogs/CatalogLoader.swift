import Glibc
@_spi(Inlining) import LandmarkNearCore

/// Reads a landmark catalog from a file or bytes, detecting its format: a JSON array shaped
/// like the tutorial's `landmarkData.json`, a GeoJSON FeatureCollection of Points, or CSV with
/// a header row (docs/reference/catalogs.md).
///
///     let catalog = try CatalogLoader.load(path: "landmarkData.json")
public enum CatalogLoader {
    /// Reads the catalog at `path`: a file, a pipe, a FIFO or `/dev/stdin` (read once, in full).
    /// A regular file is mapped, and the scanners let go of its pages as they pass them.
    public static func load(path: String) throws(CatalogError) -> LandmarkCatalog {
        try load(path: path, splitAbove: ParallelCatalogScan.loaderThreshold)
    }

    /// `splitAbove`: the size from which the scan is split over two threads (tests lower it).
    package static func load(path: String, splitAbove: Int) throws(CatalogError) -> LandmarkCatalog {
        let descriptor: Int32
        do {
            descriptor = try InputFile.open(path)
        } catch {
            throw CatalogError(error)
        }
        defer { close(descriptor) }
        if let mapped = MappedFile(descriptor: descriptor) {
            return try parse(
                mapped.bytes, source: path, scanning: true, file: mapped, shared: .file(descriptor: descriptor), splitAbove: splitAbove)
        }
        let bytes: [UInt8]
        do {
            bytes = try InputFile.read(descriptor: descriptor, source: path)
        } catch {
            throw CatalogError(error)
        }
        return try parse(bytes, source: path, scanning: true, splitAbove: splitAbove)
    }

    public static func parse(_ bytes: [UInt8], source: String) throws(CatalogError) -> LandmarkCatalog {
        try parse(bytes, source: source, scanning: true, splitAbove: ParallelCatalogScan.loaderThreshold)
    }

    /// `scanning: false` takes the full parser alone (the tests compare the two paths);
    /// `splitAbove` as in `load(path:splitAbove:)`.
    package static func parse(
        _ bytes: [UInt8], source: String, scanning: Bool, splitAbove: Int = ParallelCatalogScan.loaderThreshold
    ) throws(CatalogError) -> LandmarkCatalog {
        let result: Result<LandmarkCatalog, CatalogError> = bytes.withUnsafeBufferPointer { buffer in
            do throws(CatalogError) {
                return .success(
                    try parse(buffer, source: source, scanning: scanning, file: nil, shared: .array(bytes), splitAbove: splitAbove))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// `shared`: the same bytes for a second thread (`ParallelCatalogScan`).
    private static func parse(
        _ bytes: UnsafeBufferPointer<UInt8>, source: String, scanning: Bool, file: MappedFile?, shared: SharedCatalogBytes,
        splitAbove: Int
    ) throws(CatalogError) -> LandmarkCatalog {
        var start = ByteOrderMark.length(of: bytes)
        while start < bytes.count, ASCIIBlanks.whitespace.contains(bytes[start]) { start += 1 }
        guard start < bytes.count else {
            throw CatalogError(source: source, reason: "is empty")
        }
        let first = bytes[start]
        // JSON: the byte scanners first; they give up on anything unusual (escaped keys, a
        // radius, an entry to refuse), and the full parser then decides, with its errors.
        if scanning, first == UInt8(ascii: "[") || first == UInt8(ascii: "{") {
            let body = UnsafeBufferPointer(rebasing: bytes[start...])
            let scanned = ParallelCatalogScan.json(
                first == UInt8(ascii: "[") ? .tutorial : .geoJSON, in: body, file: file, shared: shared, offset: start,
                minimumBytes: splitAbove
            ).columns
            var problems = CatalogProblems(source: source)
            // A catalog to refuse goes to the full parser, whose problems name their line and column.
            if let scanned, let catalog = try? LandmarkCatalog(scanned, entries: nil, problems: &problems, locate: { _ in nil }) {
                return catalog
            }
        }
        // Every entry's problems are gathered (up to 20 listed), each with its place in the file.
        var problems = CatalogProblems(source: source)
        var columns = CatalogColumns()
        let entries: [Int]?
        let locate: (Int) -> String?
        let skippedLines = bytes[..<start].filter { $0 == 0x0A }.count
        switch first {
        case UInt8(ascii: "["), UInt8(ascii: "{"):
            let body = Array(bytes[start...])
            let json: JSONValue
            do {
                json = try JSONParser.parse(body)
            } catch {
                throw CatalogError(source: source, reason: error.description)
            }
            let landmarks: [Landmark]
            if case .array(let array) = json {
                (landmarks, entries) = TutorialCatalogFormat.landmarks(from: array, source: source, problems: &problems)
            } else {
                (landmarks, entries) = try GeoJSONCatalogFormat.landmarks(from: json, source: source, problems: &problems)
            }
            columns.reserveCapacity(landmarks.count, textBytes: landmarks.count * 16)
            for landmark in landmarks { columns.append(landmark) }
            // Offsets in `body`; the bytes skipped before it hold no newline only after a BOM.
            let offsets = LazyOffsets(body)
            locate = { entry in
                let offsets = offsets.value
                guard entry < offsets.count else { return nil }
                return JSONEntryLocations.lineAndColumn(body, offsets[entry], firstLine: 1 + skippedLines)
            }
        default:
            let body = UnsafeBufferPointer(rebasing: bytes[start...])
            let rows: CSVCatalogFormat.Rows
            // Two threads where the file is large and has no problem; else one, with its messages.
            if let split = ParallelCatalogScan.csv(in: body, source: source, shared: shared, offset: start, minimumBytes: splitAbove)
                .rows
            {
                rows = split
            } else {
                guard Self.isASCII(body) || String(validating: body, as: UTF8.self) != nil else {
                    throw CatalogError(source: source, reason: "is not valid UTF-8")
                }
                rows = try CSVCatalogFormat.landmarks(in: body, source: source, problems: &problems)
            }
            columns = rows.columns
            entries = rows.entries
            locate = { entry in entry < rows.lines.count ? "line \(rows.lines[entry] + skippedLines)" : nil }
        }
        return try LandmarkCatalog(columns, entries: entries, problems: &problems, locate: locate)
    }
}

extension CatalogLoader {
    /// Whether every byte is ASCII (then the bytes are valid UTF-8 without making a String of
    /// them), eight at a time.
    static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        var i = 0
        var high: UInt64 = 0
        while i + 8 <= bytes.count {
            high |= UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
            i += 8
        }
        while i < bytes.count {
            high |= UInt64(bytes[i])
            i += 1
        }
        return high & 0x8080_8080_8080_8080 == 0
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
