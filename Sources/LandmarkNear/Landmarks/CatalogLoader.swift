/// Reads a landmark catalog from a file or bytes, detecting its format: a JSON array shaped
/// like the tutorial's `landmarkData.json`, a GeoJSON FeatureCollection of Points, or CSV with
/// a header row (SPEC §1).
///
///     let catalog = try CatalogLoader.load(path: "landmarkData.json")
public enum CatalogLoader {
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
        var start = ByteOrderMark.length(of: bytes)
        while start < bytes.count, ASCIIBlanks.whitespace.contains(bytes[start]) { start += 1 }
        guard start < bytes.count else {
            throw CatalogError(source: source, reason: "is empty")
        }
        // Tutorial JSON: the byte scanner first; it gives up on anything unusual (escapes,
        // nested values, an entry to refuse), and the full parser then decides, with its errors.
        if bytes[start] == UInt8(ascii: "["),
           let scanned = bytes.withUnsafeBufferPointer({ TutorialCatalogScanner.landmarks(in: UnsafeBufferPointer(rebasing: $0[start...])) }) {
            return try LandmarkCatalog(scanned, source: source)
        }
        let body = Array(bytes[start...])
        let landmarks: [Landmark]
        switch body[0] {
        case UInt8(ascii: "["), UInt8(ascii: "{"):
            let json: JSONValue
            do {
                json = try JSONParser.parse(body)
            } catch {
                throw CatalogError(source: source, reason: error.description)
            }
            if case .array(let entries) = json {
                landmarks = try TutorialCatalogFormat.landmarks(from: entries, source: source)
            } else {
                landmarks = try GeoJSONCatalogFormat.landmarks(from: json, source: source)
            }
        default:
            guard String(validating: body, as: UTF8.self) != nil else {
                throw CatalogError(source: source, reason: "is not valid UTF-8")
            }
            landmarks = try CSVCatalogFormat.landmarks(from: body, source: source)
        }
        return try LandmarkCatalog(landmarks, source: source)
    }
}
