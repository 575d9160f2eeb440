/// GPX 1.0 and 1.1 (any namespace or none): every `trkpt`, `rtept` and `wpt` with `lat`/`lon`
/// attributes and an optional `<time>` child is a fix of device `default` (GPX has no device
/// field; track names are not used).
struct GPXVocabulary: XMLVocabulary {
    static let rootName = "gpx"
    static let label = "GPX"

    private var point: GPXPoint?
    private var pointDepth = 0
    private var inTime = false
    private var points = 0

    var wantsText: Bool { inTime }

    mutating func start(_ element: XMLElementStart, into sink: inout XMLRecordSink) {
        if point == nil {
            let name: String
            if element.localName.equals("trkpt") {
                name = "trkpt"
            } else if element.localName.equals("rtept") {
                name = "rtept"
            } else if element.localName.equals("wpt") {
                name = "wpt"
            } else {
                return
            }
            var started = GPXPoint(element: name, line: element.line)
            started.latitude = element.attribute("lat")
            started.longitude = element.attribute("lon")
            point = started
            pointDepth = element.depth
        } else if element.depth == pointDepth + 1, element.localName.equals("time") {
            inTime = true
            point?.hasTime = true
            point?.time.removeAll(keepingCapacity: true)
        }
    }

    mutating func end(_ localName: XMLName, depth: Int, into sink: inout XMLRecordSink) {
        guard let current = point else { return }
        if depth == pointDepth + 1 {
            inTime = false
        } else if depth == pointDepth {
            point = nil
            inTime = false
            points += 1
            switch current.fix() {
            case .fix(let fix): sink.fix(fix, line: current.line)
            case .invalid(let reason): sink.issue(line: current.line, reason)
            }
        }
    }

    mutating func characters(_ bytes: UnsafeBufferPointer<UInt8>, into sink: inout XMLRecordSink) {
        guard inTime, var current = point else { return }
        let room = GPXPoint.maximumTimeLength + 1 - current.time.count
        guard room > 0 else { return }
        point = nil
        current.time.append(contentsOf: UnsafeBufferPointer(rebasing: bytes.prefix(room)))
        point = current
    }

    func noFixExplanation() -> String {
        "the GPX document has no trkpt, rtept or wpt element"
    }
}
