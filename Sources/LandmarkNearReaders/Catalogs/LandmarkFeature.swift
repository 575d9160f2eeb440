@_spi(Inlining) import LandmarkNearCore

/// One landmark as a GeoJSON Feature, as `serve` takes it (`PUT /landmarks/ID`): read by the
/// catalog's own GeoJSON reader and checked as a catalog entry is, so that a refusal gives the
/// reasons a catalog file would (docs/reference/serve.md). The id is the path's; a Feature may
/// repeat it (`properties.id` or `id`) but not contradict it.
///
///     let (landmark, feature) = try LandmarkFeature.read(body, id: 5001, source: "landmark 5001")
///     landmark.name   // "Boathouse"
///     feature         // the Feature as kept: `properties.id` first, other properties as given
package enum LandmarkFeature {
    /// The landmark and the Feature to keep (and to show in `GET /landmarks`).
    package static func read(_ body: [UInt8], id: Int, source: String) throws(CatalogError) -> (landmark: Landmark, feature: JSONValue) {
        let json: JSONValue
        do {
            json = try JSONParser.parse(ByteOrderMark.dropped(from: body))
        } catch {
            throw CatalogError(source: source, reason: error.description)
        }
        guard case .object(let object) = json else {
            throw CatalogError(source: source, reason: "is \(json.typeDescription), not a GeoJSON Feature")
        }
        if let type = object["type"], type != .string("Feature") {
            throw CatalogError(source: source, reason: "has \"type\" \(JSONPath.excerpt(type)), not \"Feature\"")
        }
        var properties = JSONObject()
        switch object["properties"] {
        case nil, .null?: break
        case .object(let given)?: properties = given
        case let other?: throw CatalogError(source: source, reason: "has properties that are \(other.typeDescription), not an object")
        }
        for given in [properties["id"], object["id"]].compactMap({ $0 }) where given.integer != id {
            throw CatalogError(source: source, reason: "has id \(JSONPath.excerpt(given)), not the id of its path (\(id))")
        }
        properties.members = [("id", .number(Double(id)))] + properties.members.filter { $0.key != "id" }
        var members = object.members.filter { $0.key != "properties" && $0.key != "id" && $0.key != "type" }
        members.insert(("type", .string("Feature")), at: 0)
        members.append(("properties", .object(properties)))
        let feature = JSONValue.object(JSONObject(members))

        var problems = CatalogProblems(source: source)
        let collection = JSONValue.object(JSONObject([("type", .string("FeatureCollection")), ("features", .array([feature]))]))
        do {
            let (landmarks, _) = try GeoJSONCatalogFormat.landmarks(from: collection, source: source, problems: &problems)
            var columns = CatalogColumns()
            for landmark in landmarks { columns.append(landmark) }
            let catalog = try LandmarkCatalog(columns, entries: nil, problems: &problems, locate: { _ in nil })
            return (catalog[0], feature)
        } catch {
            throw withoutEntry(error)
        }
    }

    /// The problems of one Feature, one line each: `landmark 5001: has no name`.
    package static func reasons(of error: CatalogError) -> [String] {
        var lines = ([error] + error.otherProblems).map { problem in
            var one = problem
            one.otherProblems = []
            one.unlistedProblems = 0
            return one.description
        }
        if error.unlistedProblems > 0 { lines.append("and \(error.unlistedProblems) more") }
        return lines
    }

    /// The source names the one landmark: "entry 0" would only confuse.
    private static func withoutEntry(_ error: CatalogError) -> CatalogError {
        var error = error
        error.entry = nil
        error.id = nil
        error.location = nil
        error.otherProblems = error.otherProblems.map { problem in
            var one = problem
            one.entry = nil
            one.id = nil
            one.location = nil
            return one
        }
        return error
    }

    /// A catalog landmark as a GeoJSON Feature (for one that did not come as a Feature: the
    /// files' landmarks in `GET /landmarks`), its point as the geometry.
    package static func feature(of landmark: Landmark) -> JSONValue {
        var properties: [(key: String, value: JSONValue)] = [
            ("id", .number(Double(landmark.id))), ("name", .string(landmark.name)),
            ("isFavorite", .bool(landmark.isFavorite)), ("isFeatured", .bool(landmark.isFeatured)),
        ]
        for (key, value) in [
            ("category", landmark.category), ("city", landmark.city), ("state", landmark.state), ("park", landmark.park),
            ("imageName", landmark.imageName),
        ] {
            if let value { properties.append((key, .string(value))) }
        }
        if let radius = landmark.radius { properties.append(("radius", .number(radius.meters))) }
        return .object(
            JSONObject([
                ("type", .string("Feature")), ("geometry", geometry(of: landmark)),
                ("properties", .object(JSONObject(properties))),
            ]))
    }

    /// The landmark's place as GeoJSON (a Polygon or LineString when it is one, else Multi...),
    /// or its point. Rings are written closed, as GeoJSON wants them.
    private static func geometry(of landmark: Landmark) -> JSONValue {
        func position(_ coordinate: Coordinate) -> JSONValue { .array([.number(coordinate.longitude), .number(coordinate.latitude)]) }
        func line(_ coordinates: [Coordinate]) -> JSONValue { .array(coordinates.map(position)) }
        func ring(_ coordinates: [Coordinate]) -> JSONValue {
            guard let first = coordinates.first, coordinates.last != first else { return line(coordinates) }
            return line(coordinates + [first])
        }
        func object(_ type: String, _ coordinates: JSONValue) -> JSONValue {
            .object(JSONObject([("type", .string(type)), ("coordinates", coordinates)]))
        }
        switch landmark.shape {
        case nil: return object("Point", position(landmark.coordinate))
        case .areas(let polygons) where polygons.count == 1: return object("Polygon", .array(polygons[0].map(ring)))
        case .areas(let polygons): return object("MultiPolygon", .array(polygons.map { .array($0.map(ring)) }))
        case .lines(let paths) where paths.count == 1: return object("LineString", line(paths[0]))
        case .lines(let paths): return object("MultiLineString", .array(paths.map(line)))
        }
    }
}
