@_spi(Inlining) import LandmarkNearCore

/// Turns one GeoJSON value into fixes: a FeatureCollection's features in order, a Feature, or
/// a bare geometry. Point, MultiPoint, LineString and MultiLineString give one fix a position
/// (`[lon, lat, alt?]`); GeometryCollections are read through. Times come from
/// `properties.coordTimes` or `properties.times` (togeojson's convention: one per position,
/// nested like the lines of a MultiLineString) or, for a Point, `properties.time` /
/// `properties.timestamp` (RFC 3339 or epoch seconds/milliseconds); the device from
/// `properties.device`. Polygons are areas, not tracks: counted, not read.
struct GeoJSONFixes {
    private(set) var skipped = SkipTally()
    /// The first time without a zone read (`ZonelessTime`), at the line of its document.
    private(set) var zonelessTime: ZonelessTime?

    private struct Context {
        var line: Int
        var source: String
        var label: String
    }

    mutating func records(from value: JSONValue, line: Int, source: String, into records: inout [FixRecord]) {
        guard let object = value.objectValue else {
            records.append(
                .invalid(FixReadIssue(source: source, line: line, reason: "GeoJSON: \(value.typeDescription) is not a GeoJSON object")))
            return
        }
        let context = Context(line: line, source: source, label: "GeoJSON")
        switch object["type"]?.stringValue {
        case "FeatureCollection"?:
            guard let features = object["features"]?.arrayValue else {
                issue("FeatureCollection without a \"features\" array", context, &records)
                return
            }
            for (index, feature) in features.enumerated() {
                var featureContext = context
                featureContext.label = "GeoJSON feature \(index)"
                self.feature(feature, featureContext, &records)
            }
        case "Feature"?:
            feature(value, context, &records)
        case let type?:
            geometry(object, type: type, properties: JSONObject(), device: Fix.defaultDevice, context, &records)
        case nil:
            issue("an object without a \"type\" is not GeoJSON", context, &records)
        }
    }

    private mutating func feature(_ value: JSONValue, _ context: Context, _ records: inout [FixRecord]) {
        guard let object = value.objectValue, object["type"]?.stringValue == "Feature" else {
            issue(
                "is \(value.typeDescription == "an object" ? "an object that is not a Feature" : value.typeDescription)", context, &records)
            return
        }
        let properties = object["properties"]?.objectValue ?? JSONObject()
        guard let geometry = object["geometry"]?.objectValue else {
            skipped.add("Feature without geometry")
            return
        }
        guard let type = geometry["type"]?.stringValue else {
            issue("geometry has no \"type\"", context, &records)
            return
        }
        self.geometry(geometry, type: type, properties: properties, device: Self.device(properties), context, &records)
    }

    /// `properties.device` (a string, or a number written as JSON writes it), else `default`.
    private static func device(_ properties: JSONObject) -> String {
        switch properties["device"] {
        case .string(let name)?: return name.isEmpty ? Fix.defaultDevice : name
        case .number(let number)?: return JSONWriter.number(number)
        default: return Fix.defaultDevice
        }
    }

    /// The fixes of one geometry; `properties` are the Feature's (times), `device` its device.
    private mutating func geometry(
        _ geometry: JSONObject, type: String, properties: JSONObject, device: String,
        _ context: Context, _ records: inout [FixRecord]
    ) {
        let coordinates = geometry["coordinates"]
        switch type {
        case "Point":
            var time: Timestamp?
            if let value = properties["time"] ?? properties["timestamp"], !value.isNull {
                guard let parsed = self.time(value, context) else {
                    issue("properties.time \(Self.shown(value)) is neither an RFC 3339 date-time nor epoch seconds", context, &records)
                    return
                }
                time = parsed
            } else if let times = (properties["coordTimes"] ?? properties["times"])?.arrayValue, times.count == 1 {
                time = self.time(times[0], context)
            }
            position(coordinates, time: time, device: device, context, &records)
        case "MultiPoint", "LineString":
            positions(coordinates?.arrayValue, times: timeList(properties), device: device, context, &records)
        case "MultiLineString":
            guard let lines = coordinates?.arrayValue else {
                issue("MultiLineString without a coordinates array", context, &records)
                return
            }
            let times = timeList(properties)
            // togeojson nests the times like the lines; a flat list runs across them.
            let nested = times?.first?.arrayValue != nil
            var flatOffset = 0
            for (index, line) in lines.enumerated() {
                let lineTimes: [JSONValue]?
                if nested {
                    lineTimes = index < times!.count ? times![index].arrayValue : nil
                } else if let times, let count = line.arrayValue?.count, flatOffset + count <= times.count {
                    lineTimes = Array(times[flatOffset..<(flatOffset + count)])
                    flatOffset += count
                } else {
                    lineTimes = nil
                }
                positions(line.arrayValue, times: lineTimes, device: device, context, &records)
            }
        case "GeometryCollection":
            for member in geometry["geometries"]?.arrayValue ?? [] {
                guard let object = member.objectValue, let memberType = object["type"]?.stringValue else { continue }
                // The Feature's device holds for every member; its times, given a position at a
                // time for one geometry, do not.
                self.geometry(object, type: memberType, properties: JSONObject(), device: device, context, &records)
            }
        case "Polygon", "MultiPolygon":
            skipped.add("\(type) (an area, not a track)")
        default:
            issue("geometry type \(JSONWriter.quoted(String(type.prefix(40)))) is not a GeoJSON geometry", context, &records)
        }
    }

    private func timeList(_ properties: JSONObject) -> [JSONValue]? {
        (properties["coordTimes"] ?? properties["times"])?.arrayValue
    }

    private mutating func positions(
        _ list: [JSONValue]?, times: [JSONValue]?, device: String, _ context: Context,
        _ records: inout [FixRecord]
    ) {
        guard let list else {
            issue("geometry without a coordinates array", context, &records)
            return
        }
        var times = times
        if let given = times, given.count != list.count {
            issue(
                "properties.coordTimes has \(given.count) times for \(list.count) positions; the positions are read without times", context,
                &records)
            times = nil
        }
        for (index, value) in list.enumerated() {
            var time: Timestamp?
            if let times {
                guard let parsed = self.time(times[index], context) else {
                    issue(
                        "time \(Self.shown(times[index])) of position \(index) is neither an RFC 3339 date-time nor epoch seconds", context,
                        &records)
                    continue
                }
                time = parsed
            }
            position(value, time: time, device: device, context, &records)
        }
    }

    private mutating func position(
        _ value: JSONValue?, time: Timestamp?, device: String, _ context: Context,
        _ records: inout [FixRecord]
    ) {
        guard let numbers = value?.arrayValue, numbers.count >= 2,
            let longitude = numbers[0].doubleValue, let latitude = numbers[1].doubleValue
        else {
            issue("position \(value.map(Self.shown) ?? "(missing)") is not [longitude, latitude]", context, &records)
            return
        }
        let coordinate = Coordinate(latitude: latitude, longitude: longitude)
        if let reason = coordinate.invalidReason {
            issue(reason, context, &records)
            return
        }
        records.append(.fix(Fix(device: device, coordinate: coordinate, time: time), line: context.line))
    }

    private func issue(_ reason: String, _ context: Context, _ records: inout [FixRecord]) {
        records.append(.invalid(FixReadIssue(source: context.source, line: context.line, reason: "\(context.label): \(reason)")))
    }

    /// The time `value` gives, noting the first one without a zone.
    private mutating func time(_ value: JSONValue, _ context: Context) -> Timestamp? {
        switch value {
        case .string(let text):
            guard let time = Timestamp(rfc3339: text) else { return nil }
            var text = text
            if zonelessTime == nil, text.withUTF8({ Timestamp.lacksZone(rfc3339UTF8: $0) }) {
                zonelessTime = ZonelessTime(line: context.line, bytes: text.utf8)
            }
            return time
        case .number(let number): return FixTime.timestamp(epoch: number)
        default: return nil
        }
    }

    private static func shown(_ value: JSONValue) -> String {
        let text = JSONWriter.serialize(value)
        return text.count > 40 ? String(text.prefix(40)) + "…" : text
    }
}
