/// The NDJSON line `watch` prints for an event (SPEC §5):
///
///     {"event":"enter","device":"d1","time":"2026-05-01T12:00:02Z","fix":{"lat":59.98,"lon":-152.66},
///      "landmark":{"index":1,"id":1002,"name":"Silver Salmon Creek"},"distanceMeters":1234.5,"payload":{...}}
///
/// With `--events all`, enters carry `"notified"` (and `"reason"` when suppressed); only
/// notifications carry the payload.
enum EventLine {
    static func make(event: ProximityEvent, fix: Fix, landmark: Landmark, payload: String?, includeNotified: Bool) -> String {
        var line = "{\"event\":\"\(event.kind.rawValue)\",\"device\":"
        line.reserveCapacity(256 + (payload?.utf8.count ?? 0))
        JSONWriter.appendString(fix.device, to: &line)
        line += ",\"time\":"
        if let time = fix.time { line += "\"" + time.rfc3339 + "\"" } else { line += "null" }
        // As the input wrote them: decimals as given, NMEA minutes at their precision.
        line += ",\"fix\":{\"lat\":" + DegreesText.make(fix.coordinate.latitude)
        line += ",\"lon\":" + DegreesText.make(fix.coordinate.longitude)
        line += "},\"landmark\":{\"index\":\(event.landmarkIndex),\"id\":\(landmark.id),\"name\":"
        JSONWriter.appendString(landmark.name, to: &line)
        line += "},\"distanceMeters\":" + JSONWriter.number(roundedToMillimetres(event.distance))
        if includeNotified && event.kind == .enter {
            line += ",\"notified\":\(event.isNotification)"
            if let suppression = event.suppression { line += ",\"reason\":\"\(suppression.rawValue)\"" }
        }
        if let payload { line += ",\"payload\":" + payload }
        return line + "}"
    }

    static func roundedToMillimetres(_ metres: Double) -> Double {
        (metres * 1000).rounded() / 1000
    }
}
