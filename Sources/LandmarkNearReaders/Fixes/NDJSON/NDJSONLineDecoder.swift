@_spi(Inlining) import LandmarkNearCore

/// Decodes NDJSON fix lines: plain fixes, gpsd `gpspipe -w` reports and OwnTracks messages.
///
/// The common flat shape (`{"device":"d1","lat":34.0,"lon":-116.1,"time":"...","acc":5}`,
/// keys in any order, strings without escapes) is read by a byte scanner without building
/// any JSON value; anything else (escapes, nested objects as in gpsd's SKY, non-ASCII, and
/// every malformed line) goes through the strict `JSONParser`, which also words the errors.
package final class NDJSONLineDecoder: LineDecoder {
    private let devices = DeviceNames()

    package init() {}

    let noFixPrefix = "no NDJSON line was a fix"

    func noFixExplanation(linesDecoded: Int) -> String? { nil }

    /// One message as a line (`serve`'s bodies, a NATS message): no time is noted for lacking
    /// a zone (the warning is the file readers').
    package func decode(_ line: UnsafeBufferPointer<UInt8>) -> LineOutcome {
        decode(line, notingZonelessTime: false)
    }

    func decode(_ line: UnsafeBufferPointer<UInt8>, notingZonelessTime: Bool) -> LineOutcome {
        // An OwnTracks recorder line, `TIME<TAB>FLAG<TAB>{json}`: the JSON is the record.
        if let first = line.first, first != UInt8(ascii: "{"), let json = Self.recorderJSON(line) {
            return decodeObject(json, notingZonelessTime: notingZonelessTime)
        }
        return decodeObject(line, notingZonelessTime: notingZonelessTime)
    }

    /// The JSON part of a recorder line (after its second tab), or nil when `line` is not one.
    static func recorderJSON(_ line: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8>? {
        guard let firstTab = line.firstIndex(of: 0x09) else { return nil }
        guard let secondTab = line[(firstTab + 1)...].firstIndex(of: 0x09) else { return nil }
        var start = secondTab + 1
        while start < line.count, line[start] == 0x20 { start += 1 }
        guard start < line.count, line[start] == UInt8(ascii: "{") else { return nil }
        return UnsafeBufferPointer(rebasing: line[start...])
    }

    private func decodeObject(_ line: UnsafeBufferPointer<UInt8>, notingZonelessTime: Bool) -> LineOutcome {
        var fields = FixFields()
        if NDJSONFlatScanner.scan(line, into: &fields) {
            return LineOutcome(fields, devices: devices, notingZonelessTime: notingZonelessTime)
        }
        return decodeWithParser(line, notingZonelessTime: notingZonelessTime)
    }

    private func decodeWithParser(_ line: UnsafeBufferPointer<UInt8>, notingZonelessTime: Bool) -> LineOutcome {
        let value: JSONValue
        do {
            value = try JSONParser.parse(line)
        } catch {
            return .invalid(error.description)
        }
        guard case .object(let object) = value else {
            return .invalid("expected a JSON object, found \(value.typeDescription)")
        }
        return Self.outcome(of: object, devices: devices, notingZonelessTime: notingZonelessTime)
    }

    /// The fix a parsed JSON object describes, by the rules of NDJSON lines (key aliases,
    /// number and time forms, gpsd and OwnTracks types). Request decoders of `serve` use it
    /// for bodies that are one object or an array of them.
    package static func outcome(of object: JSONObject, devices: DeviceNames, notingZonelessTime: Bool = false) -> LineOutcome {
        // The strings of fix keys are copied into one arena so that fields can view them as bytes.
        var arena: [UInt8] = []
        for member in object.members {
            if case .string(let string) = member.value, FieldRole.match(member.key) != nil {
                arena.append(contentsOf: string.utf8)
            }
        }
        return arena.withUnsafeBufferPointer { buffer in
            var fields = FixFields()
            var offset = 0
            for member in object.members {
                guard let (role, rank) = FieldRole.match(member.key) else { continue }
                switch member.value {
                case .null: fields.set(role, rank: rank, .null)
                case .bool(let flag): fields.set(role, rank: rank, .bool(flag))
                case .number(let number): fields.set(role, rank: rank, .number(number))
                case .string(let string):
                    let count = string.utf8.count
                    fields.set(role, rank: rank, .text(UnsafeBufferPointer(rebasing: buffer[offset..<(offset + count)])))
                    offset += count
                case .array: fields.set(role, rank: rank, .composite(isArray: true))
                case .object: fields.set(role, rank: rank, .composite(isArray: false))
                }
            }
            return LineOutcome(fields, devices: devices, notingZonelessTime: notingZonelessTime)
        }
    }
}
