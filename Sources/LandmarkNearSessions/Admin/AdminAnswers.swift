@_spi(Inlining) import LandmarkNearCore
import LandmarkNearEngine
import LandmarkNearServer

/// The JSON bodies of the admin endpoints (docs/reference/serve.md), written with `JSONWriter`:
/// names and device names are untrusted text, escaped, never pasted in.
enum AdminAnswers {
    /// A Feature with its `landmarkIndex` (a foreign member, beside `type`, `geometry` and
    /// `properties`).
    static func landmark(_ feature: JSONValue, index: Int) -> HTTPResponse {
        var text = ""
        appendFeature(feature, index: index, to: &text)
        return .json(200, text + "\n")
    }

    /// The catalog in force: every landmark but the empty positions, in index order.
    static func collection(_ catalog: LandmarkCatalog, feature: (Int) -> JSONValue) -> HTTPResponse {
        var text = "{\"type\":\"FeatureCollection\",\"features\":["
        var first = true
        for index in 0..<catalog.count where !catalog.isVacant(at: index) {
            if !first { text += "," }
            first = false
            appendFeature(feature(index), index: index, to: &text)
        }
        return HTTPResponse(status: 200, contentType: "application/geo+json", body: Array((text + "]}\n").utf8))
    }

    private static func appendFeature(_ feature: JSONValue, index: Int, to text: inout String) {
        guard case .object(var object) = feature else { return JSONWriter.append(feature, to: &text) }
        object.members.removeAll { $0.key == "landmarkIndex" }
        object.members.insert(("landmarkIndex", .number(Double(index))), at: min(1, object.members.count))
        JSONWriter.append(.object(object), to: &text)
    }

    static func noLandmark(_ id: Int) -> HTTPResponse {
        .problem(404, "no landmark \(id) in the catalog in force")
    }

    static func noProfile(_ device: String) -> HTTPResponse {
        .problem(404, "no profile for device \(JSONWriter.quoted(device))")
    }

    /// `{"device":..,"profile":{...}}` (null once deleted), with the keys ignored as warnings.
    static func profile(_ device: String, _ object: JSONValue?, warnings: [String]) -> HTTPResponse {
        var text = "{\"device\":"
        JSONWriter.appendString(device, to: &text)
        text += ",\"profile\":"
        JSONWriter.append(object ?? .null, to: &text)
        if !warnings.isEmpty {
            text += ",\"warnings\":"
            JSONWriter.append(.array(warnings.map(JSONValue.string)), to: &text)
        }
        return .json(200, text + "}\n")
    }

    /// `{"device":..,"latestFix":{"lat","lon","time"},"inside":[{"index","id","name","since"}]}`.
    static func device(_ snapshot: DeviceSnapshot) -> HTTPResponse {
        .json(200, deviceJSON(snapshot) + "\n")
    }

    /// One device's line (the same as `landmark-near devices --json`).
    static func deviceJSON(_ snapshot: DeviceSnapshot) -> String {
        var text = "{\"device\":"
        JSONWriter.appendString(snapshot.device, to: &text)
        text += ",\"latestFix\":"
        if let fix = snapshot.latestFix {
            text += "{\"lat\":\(JSONWriter.number(fix.latitude)),\"lon\":\(JSONWriter.number(fix.longitude)),\"time\":"
            text += snapshot.latestFixTime.map { JSONWriter.quoted($0.rfc3339) } ?? "null"
            text += "}"
        } else {
            text += "null"
        }
        text += ",\"inside\":["
        let inside = snapshot.favorites.filter(\.isInside).sorted {
            ($0.landmarkIndex ?? .max, $0.landmarkID) < ($1.landmarkIndex ?? .max, $1.landmarkID)
        }
        for (position, favorite) in inside.enumerated() {
            if position > 0 { text += "," }
            text += "{\"index\":\(favorite.landmarkIndex.map(String.init) ?? "null"),\"id\":\(favorite.landmarkID),\"name\":"
            text += favorite.landmarkName.map(JSONWriter.quoted) ?? "null"
            text += ",\"since\":" + (favorite.since.map { JSONWriter.quoted($0.rfc3339) } ?? "null") + "}"
        }
        return text + "]}"
    }

    /// `{"id":..,"index":..,"name":..,"devices":[{"device":..,"since":..}]}`.
    static func inside(id: Int, index: Int, name: String, devices: [(device: String, since: Timestamp?)]) -> HTTPResponse {
        var text = "{\"id\":\(id),\"index\":\(index),\"name\":"
        JSONWriter.appendString(name, to: &text)
        text += ",\"devices\":["
        for (position, device) in devices.enumerated() {
            if position > 0 { text += "," }
            text += "{\"device\":"
            JSONWriter.appendString(device.device, to: &text)
            text += ",\"since\":" + (device.since.map { JSONWriter.quoted($0.rfc3339) } ?? "null") + "}"
        }
        return .json(200, text + "]}\n")
    }
}
