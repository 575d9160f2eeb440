@_spi(Inlining) import LandmarkNearCore

/// A fix written back as one NDJSON line in the plain shape of docs/reference/fixes.md, the canonical form
/// `landmark-near fixes` prints: `device` first, then `lat`, `lon`, and `time` and `acc` only
/// when known.
///
///     FixLine.make(Fix(device: "d1", coordinate: Coordinate(latitude: 34.0, longitude: -116.1),
///                      time: Timestamp(seconds: 1_777_636_802, nanoseconds: 500_000_000)))
///     // {"device":"d1","lat":34,"lon":-116.1,"time":"2026-05-01T12:00:02.5Z"}
///
/// Reading the line again gives the same fix, bit for bit: numbers are written in their
/// shortest round-trip form, the time as RFC 3339 with the fraction to the nanosecond, the device
/// name's bytes as they were (JSON escapes only for `"`, `\` and control characters). So a
/// stream can be split, shuffled by device and read again (Scripts/spark-watch.py does) without
/// changing an answer.
package enum FixLine {
    package static func make(_ fix: Fix) -> String {
        var line = "{\"device\":"
        line.reserveCapacity(96 + fix.device.utf8.count)
        JSONWriter.appendString(fix.device, to: &line)
        line += ",\"lat\":" + number(fix.coordinate.latitude)
        line += ",\"lon\":" + number(fix.coordinate.longitude)
        if let time = fix.time { line += ",\"time\":\"" + time.rfc3339 + "\"" }
        if let accuracy = fix.accuracy { line += ",\"acc\":" + JSONWriter.number(accuracy) }
        return line + "}"
    }

    /// As `JSONWriter.number`, but -0 stays -0: geodesics at ±180° and the poles see the sign.
    private static func number(_ value: Double) -> String {
        value == 0 && value.sign == .minus ? "-0" : JSONWriter.number(value)
    }
}
