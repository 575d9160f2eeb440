@_spi(Inlining) import LandmarkNearCore

/// KML 2.2 (and 2.3's unprefixed `Track`): fixes of device `default` from
/// - `Point` and `LineString` `<coordinates>` (`lon,lat[,alt]` tuples separated by white
///   space), timed by their Placemark's `TimeStamp/when` when it has one, else untimed;
/// - `gx:Track`: its `when` elements paired in order with its `gx:coord` elements
///   (`lon lat alt`), timed.
/// Polygons are areas, not tracks: their rings are not read. A LineString in a Placemark that
/// already had a `gx:Track` is the same path drawn again (GPSBabel writes both): not read. A LineString's coordinates are
/// turned into fixes as the text streams by, so a long line does not sit in memory; a Track
/// keeps the times not yet paired with a coordinate (16 bytes each).
struct KMLVocabulary: XMLVocabulary {
    static let rootName = "kml"
    static let label = "KML"

    private enum Kind { case placemark, point, lineString, track, timeStamp, when, coordinates, coord, other }

    private var stack: [Kind] = []
    /// The current Placemark's `TimeStamp/when`, and the Point fixes waiting for its end
    /// (the time may come after the geometry).
    private var placemarkTime: Timestamp?
    private var placemarkPoints: [(Coordinate, line: Int)] = []
    private var text = BoundedText()
    private var coordinatesLine = 0
    /// A Track's times and coordinates not yet paired.
    private var trackTimes: [Timestamp?] = []
    private var trackTimesHead = 0
    private var trackCoords: [(Coordinate, line: Int)] = []
    private var trackCoordsHead = 0
    private var coordinateLists = 0
    private var placemarkHadTrack = false
    private var skippedLines = 0

    var wantsText: Bool {
        switch stack.last {
        case .when?, .coordinates?, .coord?: return true
        default: return false
        }
    }

    private var parent: Kind? { stack.count >= 2 ? stack[stack.count - 2] : nil }

    mutating func start(_ element: XMLElementStart, into sink: inout XMLRecordSink) {
        let name = element.localName
        let kind: Kind
        if name.equals("Placemark") {
            kind = .placemark
        } else if name.equals("Point") {
            kind = .point
        } else if name.equals("LineString") {
            kind = .lineString
        } else if name.equals("Track") {
            kind = .track
        } else if name.equals("TimeStamp") {
            kind = .timeStamp
        } else if name.equals("when"), stack.last == .timeStamp || stack.last == .track {
            kind = .when
        } else if name.equals("coordinates"), stack.last == .point || (stack.last == .lineString && !placemarkHadTrack) {
            kind = .coordinates
        } else if name.equals("coordinates"), stack.last == .lineString {
            skippedLines += 1
            kind = .other
        } else if name.equals("coord"), stack.last == .track {
            kind = .coord
        } else {
            kind = .other
        }
        stack.append(kind)
        switch kind {
        case .placemark:
            placemarkTime = nil
            placemarkPoints.removeAll()
            placemarkHadTrack = false
        case .track:
            if stack.contains(.placemark) { placemarkHadTrack = true }
            trackTimes.removeAll()
            trackTimesHead = 0
            trackCoords.removeAll()
            trackCoordsHead = 0
        case .when, .coord:
            text.reset()
            coordinatesLine = element.line
        case .coordinates:
            text.reset()
            coordinatesLine = element.line
            coordinateLists += 1
        default:
            break
        }
    }

    mutating func end(_ localName: XMLName, depth: Int, into sink: inout XMLRecordSink) {
        guard let kind = stack.last else { return }
        switch kind {
        case .when:
            let time = text.timestamp
            if time == nil {
                sink.issue(line: coordinatesLine, "<when> \"\(text.shown)\" is not an RFC 3339 date-time")
            }
            if parent == .track {
                trackTimes.append(time)
                pairTrack(into: &sink)
            } else if let time {
                placemarkTime = time
            }
        case .coord:
            switch KMLCoordinateTuple.parse(text.trimmed, separator: 0x20) {
            case .success(let coordinate):
                trackCoords.append((coordinate, coordinatesLine))
                pairTrack(into: &sink)
            case .failure(let error):
                sink.issue(line: coordinatesLine, "<gx:coord>: \(error.message)")
                // Keep the pairing: the time of this coordinate goes with it.
                if trackTimesHead < trackTimes.count { trackTimesHead += 1 }
            }
        case .coordinates:
            flushToken(into: &sink)
        case .track:
            // Coordinates without a time left over: untimed fixes.
            while trackCoordsHead < trackCoords.count {
                let (coordinate, line) = trackCoords[trackCoordsHead]
                trackCoordsHead += 1
                sink.fix(Fix(coordinate: coordinate), line: line)
            }
        case .placemark:
            for (coordinate, line) in placemarkPoints {
                sink.fix(Fix(coordinate: coordinate, time: placemarkTime), line: line)
            }
            placemarkPoints.removeAll()
            placemarkTime = nil
        default:
            break
        }
        stack.removeLast()
    }

    mutating func characters(_ bytes: UnsafeBufferPointer<UInt8>, into sink: inout XMLRecordSink) {
        guard stack.last == .coordinates else {
            text.append(bytes)
            return
        }
        // Tuples are split on white space as the text streams by.
        var start = 0
        for index in 0..<bytes.count where isSpace(bytes[index]) {
            text.append(UnsafeBufferPointer(rebasing: bytes[start..<index]))
            flushToken(into: &sink)
            if bytes[index] == 0x0A { coordinatesLine += 1 }
            start = index + 1
        }
        text.append(UnsafeBufferPointer(rebasing: bytes[start...]))
    }

    private func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

    /// One `lon,lat[,alt]` tuple of a `<coordinates>` list is complete.
    private mutating func flushToken(into sink: inout XMLRecordSink) {
        defer { text.reset() }
        let token = text.trimmed
        guard !token.isEmpty || text.overflowed else { return }
        guard !text.overflowed else {
            sink.issue(line: coordinatesLine, "<coordinates>: coordinate \"\(text.shown)\" is too long")
            return
        }
        switch KMLCoordinateTuple.parse(token, separator: UInt8(ascii: ",")) {
        case .success(let coordinate):
            let geometry = stack.count >= 2 ? stack[stack.count - 2] : nil
            if geometry == .point, stack.contains(.placemark) {
                placemarkPoints.append((coordinate, coordinatesLine))
            } else {
                sink.fix(Fix(coordinate: coordinate, time: stack.contains(.placemark) ? placemarkTime : nil), line: coordinatesLine)
            }
        case .failure(let error):
            sink.issue(line: coordinatesLine, "<coordinates>: \(error.message)")
        }
    }

    /// Pairs a Track's times and coordinates in order, as both arrive.
    private mutating func pairTrack(into sink: inout XMLRecordSink) {
        while trackTimesHead < trackTimes.count, trackCoordsHead < trackCoords.count {
            let time = trackTimes[trackTimesHead]
            let (coordinate, line) = trackCoords[trackCoordsHead]
            trackTimesHead += 1
            trackCoordsHead += 1
            // A coordinate whose time was unreadable goes with it (its issue is reported).
            if let time { sink.fix(Fix(coordinate: coordinate, time: time), line: line) }
        }
        if trackTimesHead == trackTimes.count, trackTimesHead > 4096 {
            trackTimes.removeAll(keepingCapacity: true)
            trackTimesHead = 0
        }
        if trackCoordsHead == trackCoords.count, trackCoordsHead > 4096 {
            trackCoords.removeAll(keepingCapacity: true)
            trackCoordsHead = 0
        }
    }

    func noFixExplanation() -> String {
        coordinateLists > 0
            ? "the KML document's Point and LineString coordinates are empty"
            : "the KML document has no Point, LineString or gx:Track"
    }
}
