@_spi(Inlining) import LandmarkNearCore

/// The tutorial's `landmarkData.json` shape: an array of objects with `id`, `name` and
/// `coordinates: {latitude, longitude}`. Unknown keys are ignored.
enum TutorialCatalogFormat {
    /// The landmarks that could be read, with their entry positions; the problems of the
    /// others go to `problems`.
    static func landmarks(
        from entries: [JSONValue], source: String,
        problems: inout CatalogProblems
    ) -> (landmarks: [Landmark], entries: [Int]) {
        var landmarks: [Landmark] = []
        var positions: [Int] = []
        landmarks.reserveCapacity(entries.count)
        var shapes: ShapeReader?
        for (index, entry) in entries.enumerated() {
            do throws(CatalogError) {
                guard let object = entry.objectValue else {
                    throw CatalogError(source: source, entry: index, reason: "is \(entry.typeDescription), not an object")
                }
                let id = try CatalogFields.id(object["id"], entry: index, source: source) ?? index + 1
                // A place beside the point: `geometry`, a GeoJSON geometry (docs/reference/catalogs.md).
                if let geometry = object["geometry"], !geometry.isNull {
                    if shapes == nil { shapes = ShapeReader() }
                    let (shape, point) = try CatalogFields.shape(geometry: geometry, reader: shapes!, entry: index, id: id, source: source)
                    let given = object["coordinates"]?.objectValue
                    let coordinate =
                        given == nil
                        ? point
                        : Coordinate(
                            latitude: try CatalogFields.degrees(
                                given!.first(of: ["latitude", "lat"])?.value, name: "latitude", entry: index, id: id, source: source),
                            longitude: try CatalogFields.degrees(
                                given!.first(of: ["longitude", "lon", "lng"])?.value, name: "longitude", entry: index, id: id,
                                source: source))
                    var landmark = try CatalogFields.landmark(from: object, id: id, coordinate: coordinate, entry: index, source: source)
                    landmark.shape = shape
                    landmarks.append(landmark)
                    positions.append(index)
                    continue
                }
                let coordinates = object["coordinates"]?.objectValue ?? object
                let latitude = try CatalogFields.degrees(
                    coordinates.first(of: ["latitude", "lat"])?.value,
                    name: "latitude", entry: index, id: id, source: source)
                let longitude = try CatalogFields.degrees(
                    coordinates.first(of: ["longitude", "lon", "lng"])?.value,
                    name: "longitude", entry: index, id: id, source: source)
                landmarks.append(
                    try CatalogFields.landmark(
                        from: object, id: id, coordinate: Coordinate(latitude: latitude, longitude: longitude),
                        entry: index, source: source))
                positions.append(index)
            } catch {
                problems.add(error)
            }
        }
        return (landmarks, positions)
    }
}

/// Field readers shared by the JSON-shaped catalog formats.
enum CatalogFields {
    static func id(_ value: JSONValue?, entry: Int, source: String) throws(CatalogError) -> Int? {
        guard let value, !value.isNull else { return nil }
        if let id = value.integer { return id }
        if let text = value.stringValue, let id = Int(text) { return id }
        throw CatalogError(
            source: source, entry: entry,
            reason: "has an id that is not an integer (\(TerminalText.safe(String(JSONWriter.serialize(value).prefix(40)))))")
    }

    static func degrees(_ value: JSONValue?, name: String, entry: Int, id: Int, source: String) throws(CatalogError) -> Double {
        switch value {
        case .number(let d)?: return d
        case .string(let s)?:
            if let d = Double(ASCIIBlanks.spacesAndTabs.trimming(s)) { return d }
            throw CatalogError(source: source, entry: entry, id: id, reason: "has a \(name) that is not a number")
        case nil, .null?:
            throw CatalogError(source: source, entry: entry, id: id, reason: "has no \(name)")
        default:
            throw CatalogError(source: source, entry: entry, id: id, reason: "has a \(name) that is not a number")
        }
    }

    /// A landmark's place from a GeoJSON geometry value (an object; a string holding one is
    /// read too), and its representative point; a Point geometry is not a place.
    static func shape(geometry: JSONValue, reader: ShapeReader, entry: Int, id: Int, source: String) throws(CatalogError)
        -> (LandmarkShape?, Coordinate)
    {
        let text: String
        switch geometry {
        case .object: text = JSONWriter.serialize(geometry)
        case .string(let string): text = string
        default:
            throw CatalogError(
                source: source, entry: entry, id: id,
                reason: "has a geometry that is \(geometry.typeDescription), not a GeoJSON geometry object")
        }
        do throws(ShapeReader.Problem) {
            switch try reader.read(geoJSON: text) {
            case .point(let point): return (nil, point)
            case .shape(let shape, let point): return (shape, point)
            }
        } catch {
            throw CatalogError(source: source, entry: entry, id: id, reason: "has a geometry that is refused: \(error.reason)")
        }
    }

    static func flag(_ value: JSONValue?) -> Bool {
        switch value {
        case .bool(let b)?: return b
        case .number(let d)?: return d != 0
        case .string(let s)?: return CSVLine.boolean(s) ?? false
        default: return false
        }
    }

    static func landmark(from object: JSONObject, id: Int, coordinate: Coordinate, entry: Int, source: String) throws(CatalogError)
        -> Landmark
    {
        guard let name = object["name"]?.stringValue else {
            throw CatalogError(source: source, entry: entry, id: id, reason: "has no name")
        }
        return Landmark(
            id: id, name: name, coordinate: coordinate,
            isFavorite: flag(object["isFavorite"] ?? object["favorite"]),
            isFeatured: flag(object["isFeatured"]),
            category: object["category"]?.stringValue, city: object["city"]?.stringValue,
            state: object["state"]?.stringValue, park: object["park"]?.stringValue,
            imageName: object["imageName"]?.stringValue,
            radius: try radius(object["radius"], entry: entry, id: id, source: source))
    }

    /// `radius`: a number of metres, or a length with a unit (`"2km"`, `"500 m"`); null or
    /// absent for none.
    static func radius(_ value: JSONValue?, entry: Int, id: Int, source: String) throws(CatalogError) -> Length? {
        switch value {
        case nil, .null?:
            return nil
        case .number(let metres)?:
            guard metres.isFinite, metres >= 0 else {
                throw CatalogError(source: source, entry: entry, id: id, reason: "has a radius that is not a non-negative number of metres")
            }
            return Length(value: metres, unit: .meters)
        case .string(let text)?:
            return try radius(text: text, entry: entry, id: id, source: source)
        case let other?:
            throw CatalogError(
                source: source, entry: entry, id: id,
                reason: "has a radius that is \(other.typeDescription), not metres or a length such as \"2km\"")
        }
    }

    /// A radius written as text: bare metres (`500`) or a length with a unit; empty for none.
    static func radius(text: String, entry: Int, id: Int, source: String) throws(CatalogError) -> Length? {
        let trimmed = ASCIIBlanks.spacesAndTabs.trimming(text)
        if trimmed.isEmpty { return nil }
        if let metres = Double(trimmed) {
            guard metres.isFinite, metres >= 0 else {
                throw CatalogError(source: source, entry: entry, id: id, reason: "has a radius that is not a non-negative number of metres")
            }
            return Length(value: metres, unit: .meters)
        }
        do throws(UnitParseError) {
            return try Length(parsing: String(trimmed))
        } catch {
            throw CatalogError(source: source, entry: entry, id: id, reason: "has a radius \(error.description)")
        }
    }
}
