@_spi(Inlining) import LandmarkNearCore
import LandmarkNearEngine
import LandmarkNearOutputs
import LandmarkNearServer

/// The JSON bodies of the admin endpoints (docs/reference/serve.md), written with `JSONWriter`:
/// names and device names are untrusted text, escaped, never pasted in.
enum AdminAnswers {
    /// A Feature with its `landmarkIndex` (a foreign member, beside `type`, `geometry` and
    /// `properties`).
    static func landmark(_ feature: JSONValue, index: Int) -> HTTPResponse {
        var text = ""
        LandmarkListing.append(feature, index: index, to: &text)
        return .json(200, text + "\n")
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
        .json(200, DeviceListing.json(snapshot) + "\n")
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
