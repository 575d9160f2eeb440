@_spi(Inlining) import LandmarkNearCore

/// The raw fields of one NDJSON object or CSV row, by role, and their interpretation as a fix
/// (docs/reference/fixes.md), shared by every keyed format so that they agree on aliases and number forms.
struct FixFields {
    // One slot a `FieldRole` case; inline, so that filling them allocates nothing.
    private var values = InlineArray<10, FieldValue>(repeating: .absent)
    private var ranks = InlineArray<10, Int>(repeating: .max)

    subscript(role: FieldRole) -> FieldValue { values[role.rawValue] }

    /// Records a value for a key of alias `rank`: a better-ranked alias wins over a worse one,
    /// and a key given twice keeps its last value.
    mutating func set(_ role: FieldRole, rank: Int, _ value: FieldValue) {
        if rank <= ranks[role.rawValue] {
            ranks[role.rawValue] = rank
            values[role.rawValue] = value
        }
    }

    enum Outcome {
        case fix(Fix)
        /// Not a fix and not an error: gpsd's other classes, TPV without a fix or without a
        /// position, OwnTracks' other types; with the kind counted for the "no fix" warning.
        case skip(String)
        case invalid(String)
    }

    /// The fix these fields describe.
    func interpret(devices: DeviceNames) -> Outcome {
        if case .text(let kind) = self[.gpsdClass] {
            guard Self.equals(kind, "TPV") else { return .skip("gpsd " + Self.shown(kind)) }
            guard let mode = Self.number(self[.gpsdMode]) else { return .skip("TPV without mode") }
            guard mode >= 2 else { return .skip("TPV with mode \(mode.isFinite ? String(Int(mode)) : "?")") }
            // gpsd documents that a TPV's fields may be absent: its first report often has a
            // mode and a time but no position yet (gpsd 3.22). Not a fix, not an error.
            if self[.latitude].isMissing || self[.longitude].isMissing { return .skip("TPV without lat/lon") }
        }
        if case .text(let kind) = self[.ownTracksType] {
            guard Self.equals(kind, "location") else { return .skip("OwnTracks " + Self.shown(kind)) }
        }
        let latitude: Double
        switch Self.coordinate(self[.latitude], .latitude) {
        case .success(let value): latitude = value
        case .failure(let reason): return .invalid(reason.message)
        }
        let longitude: Double
        switch Self.coordinate(self[.longitude], .longitude) {
        case .success(let value): longitude = value
        case .failure(let reason): return .invalid(reason.message)
        }
        let coordinate = Coordinate(latitude: latitude, longitude: longitude)
        if let reason = coordinate.invalidReason { return .invalid(reason) }

        var accuracy: Double?
        let accuracyField = self[.accuracy]
        if !accuracyField.isMissing {
            guard let value = Self.number(accuracyField) else {
                return .invalid(Self.notANumber(accuracyField, .accuracy))
            }
            // `1e999`, `"NaN"`, `inf`: an accuracy that is no distance makes the record unreadable
            // (read as unknown, such a fix would pass --max-accuracy).
            guard value.isFinite else {
                let shown: String
                if case .number = accuracyField {
                    shown = value.isNaN ? "NaN" : value > 0 ? "infinity" : "-infinity"
                } else {
                    shown = accuracyField.quoted
                }
                return .invalid("accuracy \(shown) is not a finite number")
            }
            accuracy = value
        }

        var time: Timestamp?
        let timeField = self.timeField(isOwnTracks: isOwnTracks)
        if !self[.date].isMissing {
            // Separate date and time-of-day columns (GPSBabel's unicsv), UTC.
            guard case .text(let date) = self[.date], let value = FixTime.combine(date: date, time: timeField) else {
                return .invalid("date \(self[.date].quoted) and time \(timeField.quoted) are not yyyy/mm/dd and hh:mm:ss[.sss]")
            }
            time = value
        } else if !timeField.isMissing {
            guard let value = FixTime.parse(timeField) else {
                return .invalid("time \(timeField.quoted) is neither an RFC 3339 date-time nor epoch seconds")
            }
            time = value
        }

        var device = Fix.defaultDevice
        var deviceHash: UInt64 = 0
        switch self[.device] {
        case .absent, .null: break
        case .text(let bytes):
            guard let (name, hash) = devices.name(bytes) else { return .invalid("device name is not valid UTF-8") }
            device = name
            deviceHash = hash
        case .number(let value):
            device = JSONWriter.number(value)
        case let other:
            return .invalid("device is \(other.typeDescription), not a string or a number")
        }
        var fix = Fix(device: device, coordinate: coordinate, time: time, accuracy: accuracy)
        fix.deviceHash = deviceHash
        return .fix(fix)
    }

    /// Whether the record is OwnTracks' (its `_type` is text: `interpret` skips all but
    /// `location`). One answer for `interpret` and `zonelessTimeText`, which must pick the same
    /// time field.
    @inline(__always)
    private var isOwnTracks: Bool {
        if case .text = self[.ownTracksType] { return true }
        return false
    }

    /// The time field: time keys in order of preference are time, t, tst, timestamp; but
    /// OwnTracks' `t` is its trigger letter, and its time is `tst`.
    @inline(__always)
    private func timeField(isOwnTracks: Bool) -> FieldValue {
        var timeField = self[.time]
        if !isOwnTracks, !self[.shortTime].isMissing, timeField.isMissing || ranks[FieldRole.time.rawValue] > 0 {
            timeField = self[.shortTime]
        }
        return timeField
    }

    /// The text of the time of the fix `interpret` made, when it has no zone (the reader says
    /// so once: `ZonelessTime`); nil when it has one, or is a number, or is absent. Apart from
    /// `interpret`, whose result it leaves as it was, and asked only until the reader noted one.
    @inline(__always)
    func zonelessTimeText() -> UnsafeBufferPointer<UInt8>? {
        // Separate date and time-of-day columns are UTC (GPSBabel's unicsv).
        guard self[.date].isMissing else { return nil }
        // The usual `Z` answers here, without a call into the other module.
        guard case .text(let bytes) = timeField(isOwnTracks: isOwnTracks), let last = bytes.last,
            last != UInt8(ascii: "Z"), Timestamp.lacksZone(rfc3339UTF8: bytes)
        else { return nil }
        return bytes
    }

    private struct Reason: Error { var message: String }

    private static func coordinate(_ field: FieldValue, _ role: FieldRole) -> Result<Double, Reason> {
        if field.isMissing {
            let names = role.aliases.joined(separator: ", ")
            return .failure(Reason(message: "missing \(role.name) (\(names))"))
        }
        guard let value = number(field) else {
            return .failure(Reason(message: notANumber(field, role)))
        }
        return .success(value)
    }

    private static func notANumber(_ field: FieldValue, _ role: FieldRole) -> String {
        if case .text = field { return "\(role.name) \(field.quoted) is not a number" }
        return "\(role.name) is \(field.typeDescription), not a number"
    }

    /// The number a field holds: a JSON number or a numeric string; nil when it is neither.
    static func number(_ field: FieldValue) -> Double? {
        switch field {
        case .number(let value): return value
        case .text(let bytes): return DecimalNumber.parse(bytes)
        default: return nil
        }
    }

    /// A short text of a kind name for the tally, shortened.
    private static func shown(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes.prefix(24)), as: UTF8.self)
    }

    static func equals(_ bytes: UnsafeBufferPointer<UInt8>, _ literal: StaticString) -> Bool {
        bytes.count == literal.utf8CodeUnitCount
            && bytes.elementsEqual(UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }
}
