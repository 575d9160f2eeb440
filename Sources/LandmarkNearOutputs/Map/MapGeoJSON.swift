@_spi(Inlining) import LandmarkNearCore

/// The GeoJSON (RFC 7946) of a run, one feature a line: each favourite's radius as a geodesic
/// circle (`Polygon`, or `MultiPolygon` when split at ±180°) or, for a place, as its radius
/// outline (`PlaceOutline`) followed by the place itself (`kind` `place`), each device's track
/// (`LineString`, `MultiLineString` when split at ±180° or at a gap of more than 30 minutes
/// between fixes, `Point` for a single position), each favourite as a `Point`, and each event as
/// a `Point` with `event`, `device`, `landmark`, `time`, `distanceMeters`, `notified`. Every
/// feature has a `kind`: `radius`, `place`, `track`, `favorite`, `event`.
///
///     let text = MapGeoJSON.document(for: drawing)
///     // {"type":"FeatureCollection","features":[
///     // {"type":"Feature","properties":{"kind":"radius",...},"geometry":{"type":"Polygon",...}},
package enum MapGeoJSON {
    package static func document(for drawing: MapDrawing) -> String {
        var features: [String] = []
        for favorite in drawing.favorites {
            if let place = favorite.place {
                // The outline first, the place on it (viewers draw later features on top).
                features.append(
                    feature(
                        landmarkProperties(kind: "radius", favorite) + ",\"enclosesPole\":" + pole(place.enclosedPole),
                        place.outline.map(geometry) ?? "null"))
                features.append(
                    feature(landmarkProperties(kind: "place", favorite) + ",\"shape\":\"\(place.kind.rawValue)\"", geometry(place.place)))
                continue
            }
            guard let circle = favorite.circle else { continue }
            var properties = landmarkProperties(kind: "radius", favorite)
            properties += ",\"enclosesPole\":" + pole(circle.enclosedPole)
            let polygons = circle.polygons
            // A circle holding both poles is the world less a cap: left unlocated (RFC 7946 §3.2).
            let geometry =
                polygons.isEmpty
                ? "null"
                : polygons.count == 1
                    ? "{\"type\":\"Polygon\",\"coordinates\":[" + positions(polygons[0]) + "]}"
                    : "{\"type\":\"MultiPolygon\",\"coordinates\":[" + polygons.map { "[" + positions($0) + "]" }.joined(separator: ",")
                        + "]}"
            features.append(feature(properties, geometry))
        }
        for track in drawing.tracks {
            var properties = "\"kind\":\"track\",\"device\":" + JSONWriter.quoted(track.device)
            properties += ",\"fixes\":\(track.fixCount),\"drawnFixes\":\(track.points.count)"
            properties += ",\"thinningToleranceMeters\":" + (drawing.thinningTolerance.map(JSONWriter.number) ?? "null")
            let parts = track.parts.flatMap { AntimeridianSplit.lines($0) }
            let geometry: String
            if parts.isEmpty {
                guard let only = track.points.first else { continue }
                geometry = "{\"type\":\"Point\",\"coordinates\":" + position(only) + "}"
            } else if parts.count == 1 {
                geometry = "{\"type\":\"LineString\",\"coordinates\":" + positions(parts[0]) + "}"
            } else {
                geometry = "{\"type\":\"MultiLineString\",\"coordinates\":[" + parts.map(positions).joined(separator: ",") + "]}"
            }
            features.append(feature(properties, geometry))
        }
        for favorite in drawing.favorites {
            features.append(
                feature(
                    landmarkProperties(kind: "favorite", favorite),
                    "{\"type\":\"Point\",\"coordinates\":" + position(favorite.landmark.coordinate) + "}"))
        }
        for event in drawing.events {
            var properties = "\"kind\":\"event\",\"event\":\"\(event.kind.rawValue)\",\"device\":"
            properties += JSONWriter.quoted(drawing.tracks[event.device].device)
            properties += ",\"landmark\":" + JSONWriter.quoted(event.landmark.name)
            properties += ",\"landmarkId\":\(event.landmark.id),\"landmarkIndex\":\(event.landmarkIndex)"
            properties += ",\"time\":" + (event.time.map { "\"" + $0.rfc3339 + "\"" } ?? "null")
            properties += ",\"distanceMeters\":" + JSONWriter.number(ReportedDistance.millimetres(event.distance))
            properties += ",\"notified\":\(event.notified)"
            properties += ",\"reason\":" + (event.suppression.map { "\"\($0.rawValue)\"" } ?? "null")
            if let via = event.via { properties += ",\"via\":\"\(via.rawValue)\"" }
            if let enteredAt = event.enteredAt { properties += ",\"enteredAt\":\"" + enteredAt.rfc3339 + "\"" }
            features.append(feature(properties, "{\"type\":\"Point\",\"coordinates\":" + position(event.coordinate) + "}"))
        }
        return "{\"type\":\"FeatureCollection\",\"features\":[\n" + features.joined(separator: ",\n") + "\n]}\n"
    }

    private static func landmarkProperties(kind: String, _ favorite: MapDrawing.Favorite) -> String {
        "\"kind\":\"\(kind)\",\"landmark\":" + JSONWriter.quoted(favorite.landmark.name)
            + ",\"landmarkId\":\(favorite.landmark.id),\"landmarkIndex\":\(favorite.landmarkIndex)"
            + ",\"radiusMeters\":" + JSONWriter.number(favorite.radius)
    }

    private static func pole(_ pole: Int) -> String {
        pole == 0 ? "null" : pole > 0 ? "\"north\"" : "\"south\""
    }

    /// A place or its outline: Polygon or MultiPolygon, LineString or MultiLineString; `null`
    /// when there is nothing to draw.
    private static func geometry(_ figure: PlaceDrawing.Figure) -> String {
        if figure.isArea {
            let polygons = figure.polygons.map { "[" + $0.map(positions).joined(separator: ",") + "]" }
            switch polygons.count {
            case 0: return "null"
            case 1: return "{\"type\":\"Polygon\",\"coordinates\":" + polygons[0] + "}"
            default: return "{\"type\":\"MultiPolygon\",\"coordinates\":[" + polygons.joined(separator: ",") + "]}"
            }
        }
        switch figure.paths.count {
        case 0: return "null"
        case 1: return "{\"type\":\"LineString\",\"coordinates\":" + positions(figure.paths[0]) + "}"
        default: return "{\"type\":\"MultiLineString\",\"coordinates\":[" + figure.paths.map(positions).joined(separator: ",") + "]}"
        }
    }

    private static func feature(_ properties: String, _ geometry: String) -> String {
        "{\"type\":\"Feature\",\"properties\":{" + properties + "},\"geometry\":" + geometry + "}"
    }

    /// `[lon,lat]`, full precision (circle vertices must stay at the radius within 1 mm).
    static func position(_ c: Coordinate) -> String {
        "[" + JSONWriter.number(c.longitude) + "," + JSONWriter.number(c.latitude) + "]"
    }

    static func positions(_ cs: [Coordinate]) -> String {
        var out = "["
        out.reserveCapacity(cs.count * 40)
        for (i, c) in cs.enumerated() {
            if i > 0 { out += "," }
            out += position(c)
        }
        return out + "]"
    }
}
