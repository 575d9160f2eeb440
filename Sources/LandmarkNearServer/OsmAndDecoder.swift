@_spi(Inlining) import LandmarkNearCore

/// Traccar's OsmAnd protocol, in the two shapes Traccar Client sends:
/// - the query string of the classic Android client (`ProtocolFormatter.formatRequest`):
///   `?id=DEV&timestamp=EPOCH_S&lat=..&lon=..&speed=..&bearing=..&altitude=..&accuracy=..&batt=..`,
///   by GET or by POST with an empty body (also as a form-encoded body);
/// - the JSON body of the current client (flutter_background_geolocation's HTTP sync with
///   Traccar's location template): `{"location":{"timestamp":"<ISO 8601>","coords":{"latitude":..,
///   "longitude":..,"accuracy":..,...},...},"device_id":"DEV"}`, `location` possibly an array.
///
///     OsmAndDecoder.decode(query: [("id", "phone"), ("lat", "34.0"), ("lon", "-116.1")], body: [])
enum OsmAndDecoder {
    static let source = "/osmand"

    static func decode(query: [(name: String, value: String?)], body: [UInt8], contentType: String?) -> Result<[FixRecord], RequestProblem>
    {
        var arguments = query
        // A JSON body is JSON whatever its Content-Type says (curl's default is the form type).
        let firstByte = body.first { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }
        let looksLikeJSON = firstByte == UInt8(ascii: "{") || firstByte == UInt8(ascii: "[")
        let isForm = !looksLikeJSON && (contentType?.lowercased().hasPrefix("application/x-www-form-urlencoded") ?? false)
        if isForm, !body.isEmpty {
            guard let form = FormEncoding.pairs(body) else {
                return .failure(RequestProblem(400, "the form body is not valid UTF-8 or has a bad %-escape"))
            }
            arguments += form
        }
        if arguments.contains(where: { $0.name == "lat" || $0.name == "lon" || $0.name == "location" }) {
            return fromArguments(arguments)
        }
        let isBlank = body.allSatisfy { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
        if !isBlank && !isForm { return fromJSON(body) }
        return .failure(RequestProblem(400, "missing lat and lon (query arguments, or Traccar Client's JSON body)"))
    }

    private static func fromArguments(_ arguments: [(name: String, value: String?)]) -> Result<[FixRecord], RequestProblem> {
        var members: [(key: String, value: JSONValue)] = []
        for (name, value) in arguments {
            guard let value else { continue }
            // OsmAnd's `location=LAT,LON` form.
            if name == "location" {
                let parts = value.split(separator: ",", omittingEmptySubsequences: false)
                guard parts.count == 2 else {
                    return .failure(RequestProblem(400, "location \(JSONWriter.quoted(value)) is not LAT,LON"))
                }
                members.append(("lat", .string(String(parts[0]))))
                members.append(("lon", .string(String(parts[1]))))
                continue
            }
            let key: String
            switch name {
            case "id", "deviceid": key = "device"
            case "lat", "lon", "timestamp", "accuracy": key = name
            default: continue  // speed, bearing, altitude, batt, charge, ...: not used
            }
            members.append((key, .string(value)))
        }
        guard members.contains(where: { $0.key == "device" }) else {
            return .failure(RequestProblem(400, "missing id (the device identifier)"))
        }
        return .success(record(of: JSONObject(members), line: 1, source: source).map { [$0] } ?? [])
    }

    private static func fromJSON(_ body: [UInt8]) -> Result<[FixRecord], RequestProblem> {
        let value: JSONValue
        do {
            value = try JSONParser.parse(body, maximumDepth: requestJSONDepth)
        } catch {
            return .failure(RequestProblem(400, "the body is not JSON: \(error.description)"))
        }
        guard case .object(let root) = value else {
            return .failure(RequestProblem(400, "expected Traccar Client's JSON object, found \(value.typeDescription)"))
        }
        guard let device = root["device_id"], device.stringValue != nil || device.doubleValue != nil else {
            return .failure(RequestProblem(400, "missing device_id"))
        }
        let locations: [JSONValue]
        switch root["location"] {
        case .object?: locations = [root["location"]!]
        case .array(let list)?: locations = list
        default: return .failure(RequestProblem(400, "missing location (an object with coords and timestamp)"))
        }
        var records: [FixRecord] = []
        for (position, location) in locations.enumerated() {
            guard case .object(let fields) = location, case .object(let coords)? = fields["coords"] else {
                return .failure(RequestProblem(400, "location \(position + 1) has no coords object"))
            }
            var members: [(key: String, value: JSONValue)] = [("device", device)]
            members.append(("lat", coords["latitude"] ?? .null))
            members.append(("lon", coords["longitude"] ?? .null))
            if let accuracy = coords["accuracy"] { members.append(("acc", accuracy)) }
            if let time = fields["timestamp"] { members.append(("time", time)) }
            if let record = record(of: JSONObject(members), line: position + 1, source: source) { records.append(record) }
        }
        return .success(records)
    }
}

/// `application/x-www-form-urlencoded` pairs (`a=1&b=x%20y`, `+` for space).
enum FormEncoding {
    static func pairs(_ body: [UInt8]) -> [(name: String, value: String?)]? {
        var result: [(name: String, value: String?)] = []
        for part in body.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            if let equals = part.firstIndex(of: UInt8(ascii: "=")) {
                guard let name = decode(part[..<equals]), let value = decode(part[(equals + 1)...]) else { return nil }
                result.append((name, value))
            } else {
                guard let name = decode(part[...]) else { return nil }
                result.append((name, nil))
            }
        }
        return result
    }

    private static func decode(_ bytes: ArraySlice<UInt8>) -> String? {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "+") {
                out.append(0x20)
            } else if byte == UInt8(ascii: "%") {
                guard bytes.distance(from: index, to: bytes.endIndex) >= 3,
                    let high = hex(bytes[index + 1]), let low = hex(bytes[index + 2])
                else { return nil }
                out.append(high << 4 | low)
                index += 2
            } else {
                out.append(byte)
            }
            index += 1
        }
        return String(validating: out, as: UTF8.self)
    }

    private static func hex(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
