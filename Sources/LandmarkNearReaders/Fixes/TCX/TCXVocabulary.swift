@_spi(Inlining) import LandmarkNearCore

/// Garmin Training Center XML (TCX v1/v2): every `Trackpoint` with a `Position`
/// (`LatitudeDegrees`, `LongitudeDegrees`) and an optional `Time` is a fix of device
/// `default`, in document order (activities, laps and courses alike). Trackpoints without a
/// `Position` (heart rate or cadence only, as watches write indoors or in tunnels) are not
/// fixes, and are counted for the "no fix" warning.
struct TCXVocabulary: XMLVocabulary {
    static let rootName = "TrainingCenterDatabase"
    static let label = "TCX"

    private enum Field { case time, latitude, longitude }

    private var pointLine: Int?
    private var pointDepth = 0
    private var field: Field?
    private var text = BoundedText()
    private var time: BoundedText?
    private var latitude: BoundedText?
    private var longitude: BoundedText?
    private var withoutPosition = 0
    private var points = 0

    var wantsText: Bool { field != nil }

    mutating func start(_ element: XMLElementStart, into sink: inout XMLRecordSink) {
        if pointLine == nil {
            guard element.localName.equals("Trackpoint") else { return }
            pointLine = element.line
            pointDepth = element.depth
            time = nil
            latitude = nil
            longitude = nil
            return
        }
        let name = element.localName
        if element.depth == pointDepth + 1, name.equals("Time") {
            field = .time
        } else if element.depth == pointDepth + 2, name.equals("LatitudeDegrees") {
            field = .latitude
        } else if element.depth == pointDepth + 2, name.equals("LongitudeDegrees") {
            field = .longitude
        } else {
            return
        }
        text.reset()
    }

    mutating func end(_ localName: XMLName, depth: Int, into sink: inout XMLRecordSink) {
        guard let line = pointLine else { return }
        if depth > pointDepth {
            switch field {
            case .time?: time = text
            case .latitude?: latitude = text
            case .longitude?: longitude = text
            case nil: break
            }
            field = nil
            return
        }
        pointLine = nil
        points += 1
        guard latitude != nil || longitude != nil else {
            withoutPosition += 1
            return
        }
        guard let latitudeValue = latitude?.number else {
            sink.issue(line: line, "<Trackpoint>: LatitudeDegrees \(quoted(latitude)) is not a number")
            return
        }
        guard let longitudeValue = longitude?.number else {
            sink.issue(line: line, "<Trackpoint>: LongitudeDegrees \(quoted(longitude)) is not a number")
            return
        }
        let coordinate = Coordinate(latitude: latitudeValue, longitude: longitudeValue)
        if let reason = coordinate.invalidReason {
            sink.issue(line: line, "<Trackpoint>: \(reason)")
            return
        }
        var timestamp: Timestamp?
        if let time, !time.trimmed.isEmpty {
            guard let parsed = time.timestamp else {
                sink.issue(line: line, "<Trackpoint>: Time \"\(time.shown)\" is not an RFC 3339 date-time")
                return
            }
            sink.timeRead(time.trimmed, line: line)
            timestamp = parsed
        }
        sink.fix(Fix(coordinate: coordinate, time: timestamp), line: line)
    }

    mutating func characters(_ bytes: UnsafeBufferPointer<UInt8>, into sink: inout XMLRecordSink) {
        text.append(bytes)
    }

    private func quoted(_ value: BoundedText?) -> String {
        guard let value else { return "(missing)" }
        return "\"\(value.shown)\""
    }

    func noFixExplanation() -> String {
        if withoutPosition > 0 {
            return "no TCX Trackpoint had a Position: \(withoutPosition) Trackpoint\(withoutPosition == 1 ? "" : "s") without one"
        }
        return "the TCX document has no Trackpoint element"
    }
}
