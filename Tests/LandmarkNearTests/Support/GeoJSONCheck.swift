import CGEOS
import Foundation

@_spi(Inlining) @testable import LandmarkNearCore

/// An RFC 7946 structure check of a GeoJSON text, as geojson.io, QGIS and kepler.gl need it:
/// a FeatureCollection of Features with object properties; geometry types and coordinate
/// nesting; positions of 2 or 3 finite numbers with longitude in [-180, 180] and latitude in
/// [-90, 90]; LineStrings of 2+ positions; linear rings of 4+ positions, closed, exteriors
/// counterclockwise and holes clockwise (§3.1.6); no segment jumping more than 180° of longitude
/// (§3.1.9, split at the antimeridian) except along a pole's edge; and every geometry valid for GEOS (what QGIS uses).
/// Returns the problems found, each with the feature number.
enum GeoJSONCheck {
    static func problems(in text: String) -> [String] {
        let root: JSONValue
        do { root = try JSONParser.parse(text) } catch { return ["not JSON: \(error)"] }
        var problems: [String] = []
        guard root["type"]?.stringValue == "FeatureCollection", let features = root["features"]?.arrayValue else {
            return ["the root is not a FeatureCollection with a features array"]
        }
        let geos = GEOSValidity()
        for (n, feature) in features.enumerated() {
            let at = "feature \(n)"
            guard feature["type"]?.stringValue == "Feature" else { problems.append("\(at): type is not Feature"); continue }
            guard let properties = feature["properties"], properties.objectValue != nil || properties.isNull else {
                problems.append("\(at): properties is neither an object nor null"); continue
            }
            if feature["geometry"]?.isNull == true { continue }  // an unlocated feature (§3.2)
            guard let geometry = feature["geometry"], let type = geometry["type"]?.stringValue,
                let coordinates = geometry["coordinates"]
            else {
                problems.append("\(at): no geometry with type and coordinates"); continue
            }
            let before = problems.count
            check(type: type, coordinates, at: at, into: &problems)
            if problems.count == before, let reason = geos.invalidReason(JSONWriter.serialize(geometry)) {
                problems.append("\(at): GEOS: \(reason)")
            }
        }
        return problems
    }

    static func check(type: String, _ coordinates: JSONValue, at: String, into problems: inout [String]) {
        switch type {
        case "Point": _ = position(coordinates, at: at, into: &problems)
        case "MultiPoint": for p in coordinates.arrayValue ?? [] { _ = position(p, at: at, into: &problems) }
        case "LineString": line(coordinates, at: at, into: &problems)
        case "MultiLineString":
            guard let lines = coordinates.arrayValue, !lines.isEmpty else { problems.append("\(at): empty MultiLineString"); return }
            for l in lines { line(l, at: at, into: &problems) }
        case "Polygon": polygon(coordinates, at: at, into: &problems)
        case "MultiPolygon":
            guard let polygons = coordinates.arrayValue, !polygons.isEmpty else { problems.append("\(at): empty MultiPolygon"); return }
            for p in polygons { polygon(p, at: at, into: &problems) }
        default: problems.append("\(at): unknown geometry type \(type)")
        }
    }

    static func position(_ value: JSONValue, at: String, into problems: inout [String]) -> Coordinate? {
        guard let numbers = value.arrayValue, (2...3).contains(numbers.count),
            let lon = numbers[0].doubleValue, let lat = numbers[1].doubleValue, lon.isFinite, lat.isFinite
        else {
            problems.append("\(at): a position is not [lon, lat] numbers"); return nil
        }
        guard (-180...180).contains(lon), (-90...90).contains(lat) else {
            problems.append("\(at): position [\(lon), \(lat)] out of range"); return nil
        }
        return Coordinate(latitude: lat, longitude: lon)
    }

    static func positions(_ value: JSONValue, at: String, into problems: inout [String]) -> [Coordinate] {
        guard let array = value.arrayValue else { problems.append("\(at): positions are not an array"); return [] }
        let result = array.compactMap { position($0, at: at, into: &problems) }
        // Along a pole (one point on the globe) a polar cap's ring runs the whole width.
        for (a, b) in zip(result, result.dropFirst())
        where abs(b.longitude - a.longitude) > 180
            && !(abs(a.latitude) == 90 && a.latitude == b.latitude)
        {
            problems.append("\(at): a segment jumps from \(a.longitude) to \(b.longitude) (not split at ±180°)")
        }
        return result
    }

    static func line(_ value: JSONValue, at: String, into problems: inout [String]) {
        if positions(value, at: at, into: &problems).count < 2 { problems.append("\(at): a LineString needs 2 positions") }
    }

    static func polygon(_ value: JSONValue, at: String, into problems: inout [String]) {
        guard let rings = value.arrayValue, !rings.isEmpty else { problems.append("\(at): a Polygon without rings"); return }
        for (r, ringValue) in rings.enumerated() {
            let ring = positions(ringValue, at: at, into: &problems)
            guard ring.count >= 4 else { problems.append("\(at): ring \(r) has \(ring.count) positions, fewer than 4"); continue }
            guard ring.first == ring.last else { problems.append("\(at): ring \(r) is not closed"); continue }
            let area = signedArea(ring)
            if r == 0 && area <= 0 { problems.append("\(at): exterior ring is not counterclockwise (area \(area))") }
            if r > 0 && area >= 0 { problems.append("\(at): hole \(r) is not clockwise") }
        }
    }

    /// Shoelace area in square degrees: positive for a counterclockwise ring.
    static func signedArea(_ ring: [Coordinate]) -> Double {
        var sum = 0.0
        for (a, b) in zip(ring, ring.dropFirst()) { sum += a.longitude * b.latitude - b.longitude * a.latitude }
        return sum / 2
    }
}

/// GEOS's validity test (self-intersections, ring orientation aside) on a GeoJSON geometry.
final class GEOSValidity {
    private let handle: GEOSContextHandle_t
    private let reader: OpaquePointer

    init() {
        handle = GEOS_init_r()
        reader = GEOSGeoJSONReader_create_r(handle)
    }

    deinit {
        GEOSGeoJSONReader_destroy_r(handle, reader)
        GEOS_finish_r(handle)
    }

    /// nil when valid; else GEOS's reason.
    func invalidReason(_ geometryJSON: String) -> String? {
        guard let geometry = GEOSGeoJSONReader_readGeometry_r(handle, reader, geometryJSON) else { return "GEOS cannot read it" }
        defer { GEOSGeom_destroy_r(handle, geometry) }
        if GEOSisValid_r(handle, geometry) == 1 { return nil }
        guard let reason = GEOSisValidReason_r(handle, geometry) else { return "invalid" }
        defer { GEOSFree_r(handle, reason) }
        return String(cString: reason)
    }
}
