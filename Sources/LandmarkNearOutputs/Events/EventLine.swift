@_spi(Inlining) import LandmarkNearCore
import LandmarkNearEngine

/// The NDJSON line `watch` prints for an event (docs/reference/output.md):
///
///     {"event":"enter","device":"d1","time":"2026-05-01T12:00:02Z","fix":{"lat":59.98,"lon":-152.66},
///      "landmark":{"index":1,"id":1002,"name":"Silver Salmon Creek"},"distanceMeters":1234.5,"payload":{...}}
///
/// With `--events all`, enters carry `"notified"` (and `"reason"` when suppressed); only
/// notifications carry the payload.
///
/// Written byte by byte into the string's own storage, sized once: interpolation and `String`
/// appends pay bookkeeping and copies on every piece, and lines are a large share of a `watch`
/// run that notifies much (measured; see Benchmarks/LOG.md). Strings that need no escape — nearly
/// every device and landmark name — are copied as they are; the others are escaped by `JSONWriter`
/// first. Numbers are the texts of `DegreesText` and `JSONWriter.number`, integers and times
/// written digit by digit.
package enum EventLine {
    /// The line as a `String`.
    ///
    /// The landmark comes as its id and name, the two fields a line shows (`LandmarkCatalog.id(at:)`,
    /// `name(at:)`): a whole `Landmark` reads every column of a random landmark, each a cache
    /// miss, and makes its strings (measured; see Benchmarks/LOG.md).
    package static func make(
        event: ProximityEvent, fix: Fix, landmarkID: Int, landmarkName: String, payload: String?, includeNotified: Bool
    ) -> String {
        let line = Pieces(
            event: event, fix: fix, landmarkID: landmarkID, landmarkName: landmarkName, payload: payload,
            includeNotified: includeNotified)
        return String(unsafeUninitializedCapacity: line.capacity) { buffer in line.write(to: buffer.baseAddress!) }
    }

    /// The line (and a newline) written straight into `output`'s buffer: no `String` is made
    /// (for a run that only prints, its allocation, copy and release are measured to matter;
    /// see Benchmarks/LOG.md).
    package static func write(
        event: ProximityEvent, fix: Fix, landmarkID: Int, landmarkName: String, payload: String?, includeNotified: Bool,
        to output: OutputWriter
    ) {
        let line = Pieces(
            event: event, fix: fix, landmarkID: landmarkID, landmarkName: landmarkName, payload: payload,
            includeNotified: includeNotified)
        output.writeLine(maximumBytes: line.capacity) { line.write(to: $0) }
    }

    /// A line's texts, made before it is written, and the room it needs.
    private struct Pieces {
        let event: ProximityEvent
        let landmarkID: Int
        let includeNotified: Bool
        let payload: String?
        let device: QuotedJSON
        let name: QuotedJSON
        let latitude: String
        let longitude: String
        let millimetres: Int64?
        let distance: String
        let fields: LineBytes.RFC3339Fields?
        let timeText: String?
        let reason: String?
        /// `dwell`'s `enteredAt`, as RFC 3339.
        let enteredAt: String?
        let capacity: Int

        init(
            event: ProximityEvent, fix: Fix, landmarkID: Int, landmarkName: String, payload: String?, includeNotified: Bool
        ) {
            self.event = event
            self.landmarkID = landmarkID
            self.includeNotified = includeNotified
            self.payload = payload
            device = QuotedJSON(fix.device)
            name = QuotedJSON(landmarkName)
            // As the input wrote them: decimals as given, NMEA minutes at their precision; a pass
            // between fixes at its own point and time.
            let coordinate = event.point ?? fix.coordinate
            latitude = DegreesText.make(coordinate.latitude)
            longitude = DegreesText.make(coordinate.longitude)
            let time = event.time ?? fix.time
            millimetres = ReportedDistance.wholeMillimetres(event.distance)
            distance = millimetres == nil ? JSONWriter.number(ReportedDistance.millimetres(event.distance)) : ""
            fields = time.flatMap(LineBytes.RFC3339Fields.init)
            timeText = fields == nil ? time?.rfc3339 : nil
            reason = includeNotified && event.kind != .exit ? event.suppression?.rawValue : nil
            enteredAt = event.enteredAt?.rfc3339
            // The literals below come to 157 bytes, a time written here to 30 at most, the two
            // integers to 20 each, whole millimetres to 16: 243 < 256. The rest is counted.
            capacity =
                256 + device.byteCount + name.byteCount + latitude.utf8.count + longitude.utf8.count + distance.utf8.count
                + (timeText?.utf8.count ?? 0) + (reason?.utf8.count ?? 0) + (payload?.utf8.count ?? 0)
                + (enteredAt.map { $0.utf8.count + 16 } ?? 0) + (event.via == nil ? 0 : 20)
        }

        /// Writes the line from `base` on (into `capacity` bytes at most); returns its length.
        func write(to base: UnsafeMutablePointer<UInt8>) -> Int {
            var line = LineBytes(base)
            switch event.kind {
            case .enter where event.via == .crossing: line.put("{\"event\":\"enter\",\"via\":\"crossing\",\"device\":")
            case .enter: line.put("{\"event\":\"enter\",\"device\":")
            case .exit: line.put("{\"event\":\"exit\",\"device\":")
            case .dwell: line.put("{\"event\":\"dwell\",\"device\":")
            }
            line.put(device)
            line.put(",\"time\":")
            if let fields {
                line.put("\"")
                line.putRFC3339(fields)
                line.put("\"")
            } else if let timeText {
                line.put("\"")
                line.put(timeText)
                line.put("\"")
            } else {
                line.put("null")
            }
            if let enteredAt {
                line.put(",\"enteredAt\":\"")
                line.put(enteredAt)
                line.put("\"")
            }
            line.put(",\"fix\":{\"lat\":")
            line.put(latitude)
            line.put(",\"lon\":")
            line.put(longitude)
            line.put("},\"landmark\":{\"index\":")
            line.put(integer: event.landmarkIndex)
            line.put(",\"id\":")
            line.put(integer: landmarkID)
            line.put(",\"name\":")
            line.put(name)
            line.put("},\"distanceMeters\":")
            if let millimetres { line.put(millimetres: millimetres) } else { line.put(distance) }
            if includeNotified && event.kind != .exit {
                line.put(event.isNotification ? ",\"notified\":true" : ",\"notified\":false")
                if let reason {
                    line.put(",\"reason\":\"")
                    line.put(reason)
                    line.put("\"")
                }
            }
            if let payload {
                line.put(",\"payload\":")
                line.put(payload)
            }
            line.put("}")
            return line.count
        }
    }

    /// The distance of an event line, `JSONWriter.number(ReportedDistance.millimetres(metres))`,
    /// written as `make` writes it (digit by digit from whole millimetres when it can).
    static func distanceText(_ metres: Double) -> String {
        guard let millimetres = ReportedDistance.wholeMillimetres(metres) else {
            return JSONWriter.number(ReportedDistance.millimetres(metres))
        }
        return String(unsafeUninitializedCapacity: 20) { buffer in
            var line = LineBytes(buffer.baseAddress!)
            line.put(millimetres: millimetres)
            return line.count
        }
    }

    /// `string` as a JSON string, exactly as `JSONWriter.appendString` writes it.
    static func jsonString(_ string: String) -> String {
        let quoted = QuotedJSON(string)
        return String(unsafeUninitializedCapacity: quoted.byteCount) { buffer in
            var line = LineBytes(buffer.baseAddress!)
            line.put(quoted)
            return line.count
        }
    }

    /// `time.rfc3339`, as a line writes it.
    static func rfc3339(_ time: Timestamp) -> String {
        guard let fields = LineBytes.RFC3339Fields(time) else { return time.rfc3339 }
        return String(unsafeUninitializedCapacity: 30) { buffer in
            var line = LineBytes(buffer.baseAddress!)
            line.putRFC3339(fields)
            return line.count
        }
    }
}

/// A string as a JSON string: one with no byte to escape (`"`, `\`, control characters,
/// DEL) is copied between quotes as it is; the others are escaped by
/// `JSONWriter.appendString` (quotes included) beforehand.
private struct QuotedJSON {
    let text: String
    let isPlain: Bool

    init(_ string: String) {
        var string = string
        let plain = string.withUTF8 { bytes in
            for byte in bytes where byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0x7F { return false }
            return true
        }
        if plain {
            text = string
        } else {
            var escaped = ""
            JSONWriter.appendString(string, to: &escaped)
            text = escaped
        }
        isPlain = plain
    }

    var byteCount: Int { text.utf8.count + (isPlain ? 2 : 0) }
}

/// Bytes written from a pointer on, into room the caller counted (`EventLine.make`).
private struct LineBytes {
    let base: UnsafeMutablePointer<UInt8>
    private(set) var count = 0

    init(_ base: UnsafeMutablePointer<UInt8>) { self.base = base }

    mutating func put(_ literal: StaticString) {
        literal.withUTF8Buffer { bytes in
            (base + count).initialize(from: bytes.baseAddress!, count: bytes.count)
            count += bytes.count
        }
    }

    mutating func put(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            guard let start = bytes.baseAddress else { return }
            (base + count).initialize(from: start, count: bytes.count)
            count += bytes.count
        }
    }

    mutating func put(_ quoted: QuotedJSON) {
        if quoted.isPlain { put(byte: UInt8(ascii: "\"")) }
        put(quoted.text)
        if quoted.isPlain { put(byte: UInt8(ascii: "\"")) }
    }

    mutating func put(byte: UInt8) {
        base[count] = byte
        count += 1
    }

    /// `String(value)`'s digits (20 bytes at most, `Int.min` included).
    mutating func put(integer value: Int) {
        if value < 0 { put(byte: UInt8(ascii: "-")) }
        var digits = 1
        var probe = value.magnitude
        while probe >= 10 {
            probe /= 10
            digits += 1
        }
        var rest = value.magnitude
        for position in stride(from: count + digits - 1, through: count, by: -1) {
            base[position] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        }
        count += digits
    }

    /// `JSONWriter.number(Double(millimetres) / 1000)` for 0 <= millimetres < 10^15 (16
    /// bytes at most), without the `Double.description` it asks (measured: a third of an event
    /// line; see Benchmarks/LOG.md). Why the texts are the same: the double x is n / 1000 correctly
    /// rounded, so the decimal D = n / 1000 (3 decimals at most) reads back as x. Below 10^12 the
    /// spacing of doubles (ulp) is under 2^-13 < 0.001, so any other decimal with 3 decimals or
    /// fewer is at least 0.001 - ulp/2 > ulp/2 from x and reads back as another double.
    /// A shorter decimal near x has its last digit no further right than D's (its first digit
    /// is D's, or one left of it, as 1000 is of 999.999), so it has 3 decimals or fewer: D,
    /// trailing zeros dropped, is the shortest round-trip form, which `description` writes
    /// without an exponent from 10^-4 to 2^53. Integral values have no ".0" in either.
    mutating func put(millimetres: Int64) {
        put(integer: Int(millimetres / 1000))
        var fraction = Int(millimetres % 1000)
        guard fraction != 0 else { return }
        put(byte: UInt8(ascii: "."))
        var digits = 3
        while fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        for position in stride(from: count + digits - 1, through: count, by: -1) {
            base[position] = UInt8(ascii: "0") + UInt8(fraction % 10)
            fraction /= 10
        }
        count += digits
    }

    /// A time's fields as `putRFC3339` writes them: nil outside the years 0...9999 (those go
    /// through `Timestamp.rfc3339`).
    struct RFC3339Fields {
        let year, month, day, secondOfDay: Int64
        let nanoseconds: Int32

        init?(_ time: Timestamp) {
            let days = Int64((Double(time.seconds) / 86400).rounded(.down))
            (year, month, day) = Timestamp.civilDate(daysSinceEpoch: days)
            guard (0...9999).contains(year), (0..<1_000_000_000).contains(time.nanoseconds) else { return nil }
            secondOfDay = time.seconds - days * 86400
            nanoseconds = time.nanoseconds
        }
    }

    /// `time.rfc3339` (yyyy-mm-ddThh:mm:ss[.fraction]Z, 30 bytes at most), digit by digit
    /// (`Timestamp.rfc3339` builds it from a dozen small strings).
    mutating func putRFC3339(_ time: RFC3339Fields) {
        put(time.year, width: 4)
        put(byte: UInt8(ascii: "-"))
        put(time.month, width: 2)
        put(byte: UInt8(ascii: "-"))
        put(time.day, width: 2)
        put(byte: UInt8(ascii: "T"))
        put(time.secondOfDay / 3600, width: 2)
        put(byte: UInt8(ascii: ":"))
        put(time.secondOfDay % 3600 / 60, width: 2)
        put(byte: UInt8(ascii: ":"))
        put(time.secondOfDay % 60, width: 2)
        if time.nanoseconds != 0 {
            put(byte: UInt8(ascii: "."))
            put(Int64(time.nanoseconds), width: 9)
            while base[count - 1] == UInt8(ascii: "0") { count -= 1 }
        }
        put(byte: UInt8(ascii: "Z"))
    }

    /// `value` (0 <= value < 10^width) in exactly `width` digits.
    private mutating func put(_ value: Int64, width: Int) {
        var divisor: Int64 = 1
        for _ in 1..<width { divisor *= 10 }
        var rest = value
        while divisor > 0 {
            put(byte: UInt8(ascii: "0") + UInt8(rest / divisor))
            rest %= divisor
            divisor /= 10
        }
    }
}
