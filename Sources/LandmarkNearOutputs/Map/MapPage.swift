@_spi(Inlining) import LandmarkNearCore

/// The self-contained HTML map of a run: `MapPageTemplate` with the run embedded as JSON in a
/// `<script type="application/json">`. `<`, `>` and `&` in that JSON are written as `\u003c`,
/// `\u003e`, `\u0026`, so no device or landmark name can close the script element; the page's
/// script puts every name on screen with `textContent`.
///
///     let html = MapPage.html(for: drawing, title: "road-trip.nmea")
package enum MapPage {
    package static func html(for drawing: MapDrawing, title: String) -> String {
        let data = embeddable(dataJSON(for: drawing, title: title))
        return MapPageTemplate.head + data + MapPageTemplate.tail
    }

    /// The JSON text with `<`, `>` and `&` escaped (they occur only inside strings), and U+2028,
    /// U+2029, which JSON allows raw but older script parsers end a line at. Byte by byte
    /// (every character escaped is ASCII, or E2 80 A8/A9 in UTF-8) into one array: linear
    /// whatever the names hold.
    static func embeddable(_ json: String) -> String {
        var json = json
        return json.withUTF8 { bytes in
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count + 64)
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                switch byte {
                case UInt8(ascii: "<"): out.append(contentsOf: "\\u003c".utf8)
                case UInt8(ascii: ">"): out.append(contentsOf: "\\u003e".utf8)
                case UInt8(ascii: "&"): out.append(contentsOf: "\\u0026".utf8)
                case 0xE2
                where index + 2 < bytes.count && bytes[index + 1] == 0x80 && (bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9):
                    out.append(contentsOf: (bytes[index + 2] == 0xA8 ? "\\u2028" : "\\u2029").utf8)
                    index += 2
                default: out.append(byte)
                }
                index += 1
            }
            return String(decoding: out, as: UTF8.self)
        }
    }

    /// What the page's script reads: devices with flat `[lon,lat,...]` arrays (6 decimals,
    /// about 0.1 m), favourites with their unsplit circle ring (a place: an empty ring, and the
    /// place and its outline), events pointing at devices.
    static func dataJSON(for drawing: MapDrawing, title: String) -> String {
        var out = "{\"title\":" + JSONWriter.quoted(title)
        out += ",\"fixes\":\(drawing.fixCount),\"drawnFixes\":\(drawing.drawnPointCount)"
        out += ",\"thinningToleranceMeters\":" + (drawing.thinningTolerance.map(JSONWriter.number) ?? "null")
        out += ",\"omittedFavorites\":\(drawing.omittedFavorites)"
        out += ",\n\"devices\":["
        for (i, track) in drawing.tracks.enumerated() {
            if i > 0 { out += ",\n" }
            out += "{\"name\":" + JSONWriter.quoted(track.device) + ",\"fixes\":\(track.fixCount),\"coords\":"
            out += flat(track.points) + ",\"breaks\":[" + track.breaks.map(String.init).joined(separator: ",") + "]}"
        }
        out += "],\n\"favorites\":["
        for (i, favorite) in drawing.favorites.enumerated() {
            if i > 0 { out += ",\n" }
            out +=
                "{\"index\":\(favorite.landmarkIndex),\"id\":\(favorite.landmark.id),\"name\":" + JSONWriter.quoted(favorite.landmark.name)
            out += ",\"lon\":" + JSONWriter.number(favorite.landmark.coordinate.longitude)
            out += ",\"lat\":" + JSONWriter.number(favorite.landmark.coordinate.latitude)
            out += ",\"radiusMeters\":" + JSONWriter.number(favorite.radius)
            if let circle = favorite.circle {
                out += ",\"pole\":\(circle.enclosedPole),\"ring\":" + flat(circle.coversBothPoles ? [] : circle.ring) + "}"
            } else if let place = favorite.place {
                out += ",\"pole\":0,\"ring\":[],\"place\":{\"kind\":\"\(place.kind.rawValue)\",\"figure\":" + figure(place.place)
                out += ",\"outline\":" + (place.outline.map(figure) ?? "null") + "}}"
            }
        }
        out += "],\n\"events\":["
        for (i, event) in drawing.events.enumerated() {
            if i > 0 { out += ",\n" }
            out += "{\"event\":\"\(event.kind.rawValue)\",\"device\":\(event.device)"
            out += ",\"landmark\":" + JSONWriter.quoted(event.landmark.name) + ",\"landmarkId\":\(event.landmark.id)"
            out += ",\"time\":" + (event.time.map { "\"" + $0.rfc3339 + "\"" } ?? "null")
            out += ",\"distanceMeters\":" + JSONWriter.number(ReportedDistance.millimetres(event.distance))
            out += ",\"notified\":\(event.notified),\"reason\":" + (event.suppression.map { "\"\($0.rawValue)\"" } ?? "null")
            out += ",\"via\":" + (event.via.map { "\"\($0.rawValue)\"" } ?? "null")
            out += ",\"enteredAt\":" + (event.enteredAt.map { "\"" + $0.rfc3339 + "\"" } ?? "null")
            out +=
                ",\"lon\":" + JSONWriter.number(event.coordinate.longitude) + ",\"lat\":" + JSONWriter.number(event.coordinate.latitude)
                + "}"
        }
        return out + "]}"
    }

    /// A place or its outline: `area` (closed rings, filled) or not (paths), the unsplit `parts`
    /// and, for each, the pole its region holds (as a circle's `pole`).
    private static func figure(_ figure: PlaceDrawing.Figure) -> String {
        "{\"area\":\(figure.isArea),\"parts\":[" + figure.parts.map(flat).joined(separator: ",") + "],\"poles\":["
            + figure.poles.map(String.init).joined(separator: ",") + "]}"
    }

    private static func flat(_ points: [Coordinate]) -> String {
        var out = "["
        out.reserveCapacity(points.count * 24)
        for (i, p) in points.enumerated() {
            if i > 0 { out += "," }
            out += rounded(p.longitude) + "," + rounded(p.latitude)
        }
        return out + "]"
    }

    private static func rounded(_ degrees: Double) -> String {
        JSONWriter.number((degrees * 1e6).rounded() / 1e6)
    }
}
