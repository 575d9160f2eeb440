/// The NDJSON line `watch` prints for an event (SPEC §5):
///
///     {"event":"enter","device":"d1","time":"2026-05-01T12:00:02Z","fix":{"lat":59.98,"lon":-152.66},
///      "landmark":{"index":1,"id":1002,"name":"Silver Salmon Creek"},"distanceMeters":1234.5,"payload":{...}}
///
/// With `--events all`, enters carry `"notified"` (and `"reason"` when suppressed); only
/// notifications carry the payload.
///
/// Built with plain appends of whole strings: the line used to be made with
/// `JSONWriter.appendString` (which appends through the Unicode scalar view) and string
/// interpolation, and was 24 % of a `watch` run over 1M new devices with 122k notifications
/// (3.9 µs a line, per `perf`). Strings that need no escape — nearly every device and
/// landmark name — are now appended as they are; the others still go through `JSONWriter`.
enum EventLine {
    static func make(event: ProximityEvent, fix: Fix, landmark: Landmark, payload: String?, includeNotified: Bool) -> String {
        var line = ""
        line.reserveCapacity(192 + fix.device.utf8.count + landmark.name.utf8.count + (payload?.utf8.count ?? 0))
        line += event.kind == .enter ? "{\"event\":\"enter\",\"device\":" : "{\"event\":\"exit\",\"device\":"
        appendJSONString(fix.device, to: &line)
        line += ",\"time\":"
        if let time = fix.time {
            line += "\""
            appendRFC3339(time, to: &line)
            line += "\""
        } else {
            line += "null"
        }
        // As the input wrote them: decimals as given, NMEA minutes at their precision.
        line += ",\"fix\":{\"lat\":"
        line += DegreesText.make(fix.coordinate.latitude)
        line += ",\"lon\":"
        line += DegreesText.make(fix.coordinate.longitude)
        line += "},\"landmark\":{\"index\":"
        line += String(event.landmarkIndex)
        line += ",\"id\":"
        line += String(landmark.id)
        line += ",\"name\":"
        appendJSONString(landmark.name, to: &line)
        line += "},\"distanceMeters\":"
        line += JSONWriter.number(roundedToMillimetres(event.distance))
        if includeNotified && event.kind == .enter {
            line += event.isNotification ? ",\"notified\":true" : ",\"notified\":false"
            if let suppression = event.suppression {
                line += ",\"reason\":\""
                line += suppression.rawValue
                line += "\""
            }
        }
        if let payload {
            line += ",\"payload\":"
            line += payload
        }
        line += "}"
        return line
    }

    static func roundedToMillimetres(_ metres: Double) -> Double {
        (metres * 1000).rounded() / 1000
    }

    /// `string` as a JSON string, exactly as `JSONWriter.appendString` writes it: a string
    /// with no byte to escape (`"`, `\`, control characters, DEL) is appended whole.
    static func appendJSONString(_ string: String, to line: inout String) {
        var string = string
        let plain = string.withUTF8 { bytes in
            for byte in bytes where byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0x7F { return false }
            return true
        }
        guard plain else {
            JSONWriter.appendString(string, to: &line)
            return
        }
        line += "\""
        line += string
        line += "\""
    }

    /// `time.rfc3339`, written digit by digit for the years 0...9999 (`Timestamp.rfc3339`
    /// builds it from a dozen small strings); other years go through `rfc3339`.
    static func appendRFC3339(_ time: Timestamp, to line: inout String) {
        let days = Int64((Double(time.seconds) / 86400).rounded(.down))
        let (year, month, day) = Timestamp.civilDate(daysSinceEpoch: days)
        guard (0...9999).contains(year), (0..<1_000_000_000).contains(time.nanoseconds) else {
            line += time.rfc3339
            return
        }
        let secondOfDay = time.seconds - days * 86400
        // yyyy-mm-ddThh:mm:ss.nnnnnnnnnZ at most.
        let text = String(unsafeUninitializedCapacity: 30) { buffer in
            var count = 0
            func put(_ value: Int64, _ width: Int) {
                var divisor: Int64 = 1
                for _ in 1..<width { divisor *= 10 }
                var rest = value
                while divisor > 0 {
                    buffer[count] = UInt8(ascii: "0") + UInt8(rest / divisor)
                    rest %= divisor
                    divisor /= 10
                    count += 1
                }
            }
            func put(byte: UInt8) {
                buffer[count] = byte
                count += 1
            }
            put(year, 4)
            put(byte: UInt8(ascii: "-"))
            put(month, 2)
            put(byte: UInt8(ascii: "-"))
            put(day, 2)
            put(byte: UInt8(ascii: "T"))
            put(secondOfDay / 3600, 2)
            put(byte: UInt8(ascii: ":"))
            put(secondOfDay % 3600 / 60, 2)
            put(byte: UInt8(ascii: ":"))
            put(secondOfDay % 60, 2)
            if time.nanoseconds != 0 {
                put(byte: UInt8(ascii: "."))
                put(Int64(time.nanoseconds), 9)
                while buffer[count - 1] == UInt8(ascii: "0") { count -= 1 }
            }
            put(byte: UInt8(ascii: "Z"))
            return count
        }
        line += text
    }
}
