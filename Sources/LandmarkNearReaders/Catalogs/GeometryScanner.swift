@_spi(Inlining) import LandmarkNearCore

/// A GeoJSON geometry object straight from a catalog's bytes (`CatalogByteScanner`): a Point's
/// position, or a place's positions handed to `ShapeReader.read(parts:)`, which builds GEOS's
/// geometry from them and checks it as a geometry read by GEOS's own GeoJSON reader is checked.
///
/// Why not GEOS's GeoJSON reader here: it builds a JSON document first and reads 27 MB/s
/// (measured on the benchmark's 10,000 polygons), a 100,000-polygon catalog's load would take
/// half a minute in it; positions read here cost what the scanner's numbers cost. The full path
/// (`GeoJSONCatalogFormat`) still hands GEOS's reader the text, and gives its errors: anything
/// this scanner is unsure of, or that `ShapeReader` refuses, is left to it.
///
///     var scanner = CatalogByteScanner(bytes: body, file: nil)
///     GeometryScanner.geometry(&scanner)   // .point, .shape or nil
enum GeometryScanner {
    enum Scanned {
        case point(longitude: Double, latitude: Double)
        case shape(LandmarkShape, representative: Coordinate)
    }

    /// The geometry object at the scanner (`{` next), nil where the full path must decide.
    ///
    /// The positions are read where they stand when the type came first (GeoJSON's usual
    /// order, and every writer's we know); otherwise they are skipped and read once the type is
    /// known. Skipping first and reading after was a sixth of the scan of 10,000 polygons.
    static func geometry(_ scanner: inout CatalogByteScanner) -> Scanned? {
        guard scanner.take(UInt8(ascii: "{")) else { return nil }
        var type: String?
        var coordinates: Range<Int>?
        var read: (type: String, parts: Parts)?
        scanner.skipSpace()
        if scanner.take(UInt8(ascii: "}")) { return nil }
        while true {
            guard let key = scanner.key() else { return nil }
            if scanner.matches(key, "type") {
                guard !scanner.isAtContainer, let value = scanner.scalar() else { return nil }
                type = scanner.text(value)
            } else if scanner.matches(key, "coordinates") {
                scanner.skipSpace()
                let start = scanner.i
                var reader = CatalogByteScanner(bytes: scanner.bytes, file: nil, from: start)
                if let type, let parts = parts(of: type, &reader) {
                    read = (type, parts)
                    scanner.i = reader.i
                } else {
                    read = nil
                    guard scanner.skipValue() else { return nil }
                }
                coordinates = start..<scanner.i
            } else {
                guard scanner.skipValue() else { return nil }
            }
            guard let more = scanner.next(closing: UInt8(ascii: "}")) else { return nil }
            if !more { break }
        }
        guard let type, let coordinates else { return nil }
        let parts: Parts
        if let read, read.type == type {
            parts = read.parts
        } else {
            var reader = CatalogByteScanner(bytes: scanner.bytes, file: nil, from: coordinates.lowerBound)
            guard let made = Self.parts(of: type, &reader) else { return nil }
            parts = made
        }
        switch parts {
        case .point(let longitude, let latitude): return .point(longitude: longitude, latitude: latitude)
        case .shape(let shape, let multi): return Self.shape(shape, multi: multi, scanner.shapeReader())
        }
    }

    /// The positions of a geometry of `type`, read from `coordinates`' value at the reader.
    private enum Parts {
        case point(longitude: Double, latitude: Double)
        case shape(LandmarkShape, multi: Bool)
    }

    private static func parts(of type: String, _ reader: inout CatalogByteScanner) -> Parts? {
        switch type {
        case "Point":
            guard let position = position(&reader) else { return nil }
            return .point(longitude: position.longitude, latitude: position.latitude)
        case "LineString":
            guard let path = list(&reader, vertex) else { return nil }
            return .shape(.lines([path]), multi: false)
        case "MultiLineString":
            guard let paths = list(&reader, { list(&$0, vertex) }) else { return nil }
            return .shape(.lines(paths), multi: true)
        case "Polygon":
            guard let rings = list(&reader, { list(&$0, vertex) }) else { return nil }
            return .shape(.areas([rings]), multi: false)
        case "MultiPolygon":
            guard let polygons = list(&reader, { list(&$0, { list(&$0, vertex) }) }) else { return nil }
            return .shape(.areas(polygons), multi: true)
        default:
            return nil
        }
    }

    private static func shape(_ parts: LandmarkShape, multi: Bool, _ reader: ShapeReader) -> Scanned? {
        guard case .shape(let shape, let representative)? = try? reader.read(parts: parts, multi: multi) else { return nil }
        return .shape(shape, representative: representative)
    }

    /// `[item, item, …]` with at least one item (an empty list is the full path's to refuse).
    private static func list<T>(_ scanner: inout CatalogByteScanner, _ item: (inout CatalogByteScanner) -> T?) -> [T]? {
        scanner.skipSpace()
        guard scanner.take(UInt8(ascii: "[")) else { return nil }
        var items: [T] = []
        while true {
            scanner.skipSpace()
            guard let read = item(&scanner) else { return nil }
            items.append(read)
            guard let more = scanner.next(closing: UInt8(ascii: "]")) else { return nil }
            if !more { return items }
        }
    }

    /// `[longitude, latitude, …]`: two numbers, and an altitude or more read and ignored.
    private static func position(_ scanner: inout CatalogByteScanner) -> (longitude: Double, latitude: Double)? {
        scanner.skipSpace()
        guard scanner.take(UInt8(ascii: "[")) else { return nil }
        var values = (0.0, 0.0)
        var count = 0
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

    private static func vertex(_ scanner: inout CatalogByteScanner) -> Coordinate? {
        position(&scanner).map { Coordinate(latitude: $0.latitude, longitude: $0.longitude) }
    }
}
