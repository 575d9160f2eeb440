@_spi(Inlining) import LandmarkNearCore

/// A GeoJSON FeatureCollection; each feature's `properties` hold `id`, `name`, `isFavorite`, ...
/// as in the tutorial shape, and its geometry is a Point or a place (`Polygon`, `MultiPolygon`,
/// `LineString`, `MultiLineString`, read and checked by `ShapeReader`). Features without an id
/// get their 1-based position.
enum GeoJSONCatalogFormat {
    static func landmarks(
        from json: JSONValue, source: String,
        problems: inout CatalogProblems
    ) throws(CatalogError) -> (landmarks: [Landmark], entries: [Int]) {
        guard let root = json.objectValue else {
            throw CatalogError(source: source, reason: "is \(json.typeDescription), not a landmark array or GeoJSON FeatureCollection")
        }
        guard root["type"]?.stringValue == "FeatureCollection", let features = root["features"]?.arrayValue else {
            throw CatalogError(source: source, reason: "is a JSON object but not a GeoJSON FeatureCollection with a \"features\" array")
        }
        var landmarks: [Landmark] = []
        var positions: [Int] = []
        landmarks.reserveCapacity(features.count)
        let shapes = ShapeReader()
        for (index, feature) in features.enumerated() {
            do throws(CatalogError) {
                guard let object = feature.objectValue else {
                    throw CatalogError(source: source, entry: index, reason: "is \(feature.typeDescription), not a Feature")
                }
                let properties = object["properties"]?.objectValue ?? JSONObject()
                let id = try CatalogFields.id(properties["id"] ?? object["id"], entry: index, source: source) ?? index + 1
                guard let geometry = object["geometry"]?.objectValue else {
                    throw CatalogError(source: source, entry: index, id: id, reason: "has no geometry")
                }
                if geometry["type"]?.stringValue == "Point" {
                    guard let position = geometry["coordinates"]?.arrayValue, position.count >= 2 else {
                        throw CatalogError(source: source, entry: index, id: id, reason: "has no Point geometry with [longitude, latitude]")
                    }
                    let longitude = try CatalogFields.degrees(position[0], name: "longitude", entry: index, id: id, source: source)
                    let latitude = try CatalogFields.degrees(position[1], name: "latitude", entry: index, id: id, source: source)
                    landmarks.append(
                        try CatalogFields.landmark(
                            from: properties, id: id, coordinate: Coordinate(latitude: latitude, longitude: longitude),
                            entry: index, source: source))
                } else {
                    let (shape, point) = try CatalogFields.shape(
                        geometry: .object(geometry), reader: shapes, entry: index, id: id, source: source)
                    var landmark = try CatalogFields.landmark(from: properties, id: id, coordinate: point, entry: index, source: source)
                    landmark.shape = shape
                    landmarks.append(landmark)
                }
                positions.append(index)
            } catch {
                problems.add(error)
            }
        }
        return (landmarks, positions)
    }
}
