@_spi(Inlining) import LandmarkNearCore

/// KML 2.2 (and 2.3's unprefixed `Track`): fixes of device `default` from
/// - `Point` and `LineString` `<coordinates>` (`lon,lat[,alt]` tuples separated by white
///   space), timed by their Placemark's `TimeStamp/when` when it has one, else untimed;
/// - `gx:Track`: its `when` elements paired in order with its `gx:coord` elements
///   (`lon lat alt`), timed.
/// Polygons are areas, not tracks: their rings are not read.
///
/// A document that holds a `gx:Track` anywhere draws the same track again as `LineString`s
/// (GPSBabel writes a "Path" Placemark after its track's, Google Earth both in one): there,
/// no `LineString` is read, and the coordinates so skipped are counted for the summary (SPEC 3).
/// The decision is the whole document's, and a `LineString` may come before the track: its
/// records — and every record after it, to keep their order — are held back until a track
/// begins (the `LineString`'s are then dropped, the others handed on) or the document ends
/// (all handed on). At most `maximumHeld` are held: past that they are handed on, the
/// `LineString`s before any track are read, and only those after one are skipped — memory stays
/// bounded whatever the document. A Track keeps the times not yet paired with a coordinate
/// (16 bytes each).
package struct KMLVocabulary: XMLVocabulary {
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
    /// A `gx:Track` began somewhere before: `LineString`s from here on are skipped.
    private var documentHasTrack = false
    /// Records held back while a `LineString` before any track waits for the decision, in order,
    /// each marked when it came from a `LineString`.
    private var held: [(record: FixRecord, fromLineString: Bool)] = []
    /// Past `maximumHeld`: `LineString`s before any track are read as they come.
    private var lineStringsRead = false
    static let maximumHeld = 1 << 20
    /// The skip kind of a `LineString` coordinate not read (the summary counts them).
    package static let lineStringCoordinateSkipped = "KML LineString coordinate drawn again"
    private(set) var skipped = SkipTally()

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
        } else if name.equals("coordinates"), stack.last == .point || stack.last == .lineString {
            kind = .coordinates
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
        case .track:
            trackBegins(into: &sink)
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
        guard let kind = stack.last else {
            // The root element ends: the document holds no track from here on.
            finish(into: &sink)
            return
        }
        switch kind {
        case .when:
            let time = text.timestamp
            if time == nil {
                issue(line: coordinatesLine, "<when> \"\(text.shown)\" is not an RFC 3339 date-time", into: &sink)
            } else {
                sink.timeRead(text.trimmed, line: coordinatesLine)
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
                issue(line: coordinatesLine, "<gx:coord>: \(error.message)", into: &sink)
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
                emit(.fix(Fix(coordinate: coordinate), line: line), into: &sink)
            }
        case .placemark:
            for (coordinate, line) in placemarkPoints {
                emit(.fix(Fix(coordinate: coordinate, time: placemarkTime), line: line), into: &sink)
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
        let geometry = stack.count >= 2 ? stack[stack.count - 2] : nil
        let inLineString = geometry == .lineString
        if inLineString, documentHasTrack {
            skipped.add(Self.lineStringCoordinateSkipped)
            return
        }
        let record: FixRecord
        if text.overflowed {
            record = .invalid(
                FixReadIssue(
                    source: sink.sourceName, line: coordinatesLine, reason: "<coordinates>: coordinate \"\(text.shown)\" is too long"))
        } else {
            switch KMLCoordinateTuple.parse(token, separator: UInt8(ascii: ",")) {
            case .success(let coordinate):
                if geometry == .point, stack.contains(.placemark) {
                    placemarkPoints.append((coordinate, coordinatesLine))
                    return
                }
                let time = stack.contains(.placemark) ? placemarkTime : nil
                record = .fix(Fix(coordinate: coordinate, time: time), line: coordinatesLine)
            case .failure(let error):
                record = .invalid(FixReadIssue(source: sink.sourceName, line: coordinatesLine, reason: "<coordinates>: \(error.message)"))
            }
        }
        emit(record, fromLineString: inLineString, into: &sink)
    }

    private mutating func issue(line: Int, _ reason: String, into sink: inout XMLRecordSink) {
        emit(.invalid(FixReadIssue(source: sink.sourceName, line: line, reason: reason)), into: &sink)
    }

    /// Hands `record` on, or holds it back while a `LineString` waits for the document's decision.
    private mutating func emit(_ record: FixRecord, fromLineString: Bool = false, into sink: inout XMLRecordSink) {
        guard (fromLineString && !lineStringsRead) || !held.isEmpty else {
            sink.append(record)
            return
        }
        held.append((record, fromLineString))
        if held.count > Self.maximumHeld {
            lineStringsRead = true
            release(droppingLineStrings: false, into: &sink)
        }
    }

    /// A track begins: the document holds one, so the `LineString`s held are the same track
    /// drawn again.
    private mutating func trackBegins(into sink: inout XMLRecordSink) {
        documentHasTrack = true
        release(droppingLineStrings: true, into: &sink)
    }

    private mutating func release(droppingLineStrings: Bool, into sink: inout XMLRecordSink) {
        for (record, fromLineString) in held {
            if droppingLineStrings && fromLineString {
                skipped.add(Self.lineStringCoordinateSkipped)
            } else {
                sink.append(record)
            }
        }
        held.removeAll()
    }

    /// The document ended (or the input did, or reading stopped): what was held is read.
    mutating func finish(into sink: inout XMLRecordSink) {
        release(droppingLineStrings: false, into: &sink)
    }

    /// Pairs a Track's times and coordinates in order, as both arrive.
    private mutating func pairTrack(into sink: inout XMLRecordSink) {
        while trackTimesHead < trackTimes.count, trackCoordsHead < trackCoords.count {
            let time = trackTimes[trackTimesHead]
            let (coordinate, line) = trackCoords[trackCoordsHead]
            trackTimesHead += 1
            trackCoordsHead += 1
            // A coordinate whose time was unreadable goes with it (its issue is reported).
            if let time { emit(.fix(Fix(coordinate: coordinate, time: time), line: line), into: &sink) }
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
