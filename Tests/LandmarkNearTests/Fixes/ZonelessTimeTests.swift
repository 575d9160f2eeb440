import Foundation
import Testing

@_spi(Inlining) @testable import LandmarkNearCore
@testable import LandmarkNearReaders

/// Times without a zone (docs/reference/fixes.md#times): which texts they are, and which readers
/// note the first one with its line (NMEA, GPX and GPSBabel's date and time columns are UTC by
/// definition and note none).
@Suite(.suiteTimeLimit) struct ZonelessTimeTests {
    @Test(arguments: [
        ("2026-05-01T12:00:02", true), ("2026-05-01 12:00:02", true), ("2026-05-01t12:00:02.250", true),
        ("2026-05-01T12:00:02Z", false), ("2026-05-01T12:00:02z", false), ("2026-05-01T12:00:02.5Z", false),
        ("2026-05-01T12:00:02+02:00", false), ("2026-05-01T12:00:02-0700", false), ("2026-05-01T12:00:02.5-07:00", false),
        ("1777636802", false), ("1777636802500", false), ("1777636802.25", false), ("12:00:02", false),
    ])
    func aTimeLacksAZoneWhenItHasNeitherZNorAnOffset(_ text: String, _ lacks: Bool) {
        var text = text
        #expect(text.withUTF8 { Timestamp.lacksZone(rfc3339UTF8: $0) } == lacks, "\(text)")
    }

    @Test(arguments: [
        ("time,lat,lon\n2024-05-01T12:00:00Z,1,2\n\n2024-05-01 12:00:05,1,2\n2024-05-01 12:00:09,1,2\n", 4, "2024-05-01 12:00:05"),
        (#"{"lat":1,"lon":2,"t":"2024-05-01T12:00:00"}"# + "\n", 1, "2024-05-01T12:00:00"),
        // A `_type` that is no text is no OwnTracks message: its `t` is the time, as read.
        (#"{"_type":5,"lat":1,"lon":2,"t":"2024-05-01T12:00:00"}"# + "\n", 1, "2024-05-01T12:00:00"),
        // The strict parser's path (an escape) notes it too.
        (#"{"lat":1,"lon":2,"device":"a\u0062","time":"2024-05-01T12:00:00.123456789"}"# + "\n", 1, "2024-05-01T12:00:00.123456789"),
        (
            #"{"type":"Feature","properties":{"coordTimes":["2024-05-01T12:00:00Z","2024-05-01T12:00:01"]},"#
                + #""geometry":{"type":"LineString","coordinates":[[2,1],[2,1.1]]}}"# + "\n", 1, "2024-05-01T12:00:01"
        ),
    ])
    func theFirstSuchTimeIsNotedWithItsLine(_ input: String, _ line: Int, _ text: String) throws {
        let result = try FixReading.read(input)
        #expect(result.zonelessTime == ZonelessTime(line: line, bytes: Array(text.utf8)))
    }

    /// A record that is no fix notes nothing: the warning names the line of a fix.
    @Test func anUnreadableRecordNotesNothing() throws {
        let result = try FixReading.read("time,lat,lon\n2024-05-01 12:00:00,91,2\n2024-05-01 12:00:05,1,2\n")
        #expect(result.zonelessTime?.line == 3)
    }

    @Test(arguments: [
        "Date,Time,Latitude,Longitude\n2024/05/01,12:00:00,1,2\n",
        "$GPRMC,120000,A,3400.600,N,11609.600,W,0.0,0.0,010524,,*06\n",
        #"<gpx version="1.1"><wpt lat="1" lon="2"><time>2024-05-01T12:00:00</time></wpt></gpx>"#,
        #"{"lat":1,"lon":2,"time":"2024-05-01T12:00:00+00:00"}"#,
    ])
    func utcByDefinitionNotesNothing(_ input: String) throws {
        let result = try FixReading.read(input)
        #expect(result.fixes.count == 1 && result.issues.isEmpty, "\(result.issues)")
        #expect(result.zonelessTime == nil)
    }

    /// A long fraction is shortened in the message.
    @Test func theShownTextIsShort() {
        let time = ZonelessTime(line: 3, bytes: Array(("2024-05-01T12:00:00." + String(repeating: "1", count: 60)).utf8))
        #expect(time.text.count == 41 && time.text.hasSuffix("…"))
        #expect(time.warning(source: "f.csv").hasPrefix("times without a zone (f.csv line 3: \"2024-05-01T12:00:00.111"))
    }
}
