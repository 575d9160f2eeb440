@_spi(Inlining) import LandmarkNearCore

/// JSON renderings of a landmark used by the commands' `--json` output.
package enum LandmarkJSON {
    /// `{"index":1,"id":1002,"name":"Silver Salmon Creek","latitude":..,"longitude":..,"isFavorite":false}`
    package static func object(for landmark: Landmark, index: Int) -> String {
        var out = "{\"index\":\(index),\"id\":\(landmark.id),\"name\":"
        JSONWriter.appendString(landmark.name, to: &out)
        out += ",\"latitude\":\(JSONWriter.number(landmark.coordinate.latitude))"
        out += ",\"longitude\":\(JSONWriter.number(landmark.coordinate.longitude))"
        out += ",\"isFavorite\":\(landmark.isFavorite)"
        // A place says what it is (a point says nothing more, as before places existed).
        if let shape = landmark.shape { out += ",\"kind\":\"\(shape.kind.rawValue)\",\"vertices\":\(shape.vertexCount)" }
        for (key, value) in [("park", landmark.park), ("state", landmark.state), ("city", landmark.city), ("category", landmark.category)] {
            if let value {
                out += ",\"\(key)\":"
                JSONWriter.appendString(value, to: &out)
            }
        }
        return out + "}"
    }
}
