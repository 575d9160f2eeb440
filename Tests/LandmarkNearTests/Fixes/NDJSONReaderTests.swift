import Testing

@_spi(Inlining) @testable import LandmarkNearCore

@Suite(.suiteTimeLimit) struct NDJSONReaderTests {
    @Test func plainFixesWithEveryKeyAlias() throws {
        let text = """
            {"device":"d1","lat":34.011286,"lon":-116.166868,"time":"2026-05-01T12:00:02Z","acc":5}
            {"latitude":59.98,"longitude":-152.66,"id":7,"t":1777636802,"accuracy":12.5}
            {"tid":"jp","lat":"48.69","lng":"-113.53","tst":"1777636802500","eph":"3"}
            {"deviceid":"car 2","lat":1,"lon":2,"timestamp":1777636802.25}
            {"lon":2,"acc":0,"lat":1}
            """
        let result = try FixReading.read(text)
        #expect(result.format == .ndjson)
        #expect(result.issues.isEmpty)
        #expect(result.lines == [1, 2, 3, 4, 5])
        #expect(
            result.fixes == [
                Fix(
                    device: "d1", coordinate: Coordinate(latitude: 34.011286, longitude: -116.166868),
                    time: FixReading.time("2026-05-01T12:00:02Z"), accuracy: 5),
                Fix(
                    device: "7", coordinate: Coordinate(latitude: 59.98, longitude: -152.66),
                    time: Timestamp(seconds: 1_777_636_802), accuracy: 12.5),
                Fix(
                    device: "jp", coordinate: Coordinate(latitude: 48.69, longitude: -113.53),
                    time: Timestamp(seconds: 1_777_636_802, nanoseconds: 500_000_000), accuracy: 3),
                Fix(
                    device: "car 2", coordinate: Coordinate(latitude: 1, longitude: 2),
                    time: Timestamp(seconds: 1_777_636_802, nanoseconds: 250_000_000)),
                Fix(coordinate: Coordinate(latitude: 1, longitude: 2)),
            ])
    }

    /// The fast path and the full parser must agree: the same objects written with escapes,
    /// nesting or spacing that only the parser reads give the same fixes.
    @Test(arguments: [
        (
            #"{"device":"d1","lat":34.5,"lon":-116.25,"time":"2026-05-01T12:00:02Z","acc":5}"#,
            #"{ "device" : "d\u0031", "extra": {"nested": [1, 2]}, "lat" : 34.5 , "lon":-116.25,"time":"2026-05-01T12:00:02Z","acc":5 }"#
        ),
        (#"{"lat":1,"latitude":2,"lon":3}"#, #"{"latitude":2,"lat":1,"lon":3,"x":[]}"#),
        (#"{"lat":1,"lon":3,"lat":4}"#, #"{"lat":1,"lon":3,"lat":4,"x":{}}"#),
        (#"{"device":"Zoë","lat":1,"lon":3}"#, #"{"device":"Zo\u00eb","lat":1,"lon":3}"#),
    ])
    func fastPathAgreesWithParser(_ pair: (String, String)) throws {
        let fast = try FixReading.read(pair.0 + "\n", format: .ndjson)
        let slow = try FixReading.read(pair.1 + "\n", format: .ndjson)
        #expect(fast.fixes.count == 1)
        #expect(fast.fixes == slow.fixes)
    }

    @Test func gpspipeWatchCapture() throws {
        let result = try FixReading.read(path: FixReading.fixture("gpsd/gpspipe-w.ndjson"))
        #expect(result.format == .ndjson)
        #expect(result.issues.isEmpty)
        // 26 lines: VERSION, DEVICES, WATCH, DEVICE, then 22 TPV reports with mode 2 or 3.
        #expect(result.fixes.count == 22)
        #expect(result.lines.first == 5)
        let first = try #require(result.fixes.first)
        #expect(first.device == "/dev/pts/1")
        #expect(first.coordinate == Coordinate(latitude: 34.02045, longitude: -116.17498))
        #expect(first.time == FixReading.time("2026-04-30T23:59:49Z"))
        #expect(first.accuracy == nil)  // a mode 2 report without eph
        #expect(result.fixes.last?.time == FixReading.time("2026-05-01T00:00:02Z"))
        #expect(result.fixes.last?.accuracy == 15.2)
    }

    @Test func gpsdClassesAndModes() throws {
        let text = """
            {"class":"VERSION","release":"3.22","rev":"3.22","proto_major":3,"proto_minor":14}
            {"class":"SKY","device":"/dev/ttyUSB0","satellites":[{"PRN":4,"el":62,"az":55,"ss":42,"used":true}]}
            {"class":"TPV","device":"/dev/ttyUSB0","mode":1,"time":"2026-05-01T12:00:00.000Z"}
            {"class":"TPV","device":"/dev/ttyUSB0","mode":0}
            {"class":"TPV","device":"/dev/ttyUSB0","mode":2,"lat":34.0,"lon":-116.0}
            {"class":"TPV","device":"/dev/ttyUSB0","mode":3,"time":"2026-05-01T12:00:01.000Z","lat":34.1,"lon":-116.1,"eph":7.5}
            {"class":"PPS","device":"/dev/pps0","real_sec":1777636801}
            """
        let result = try FixReading.read(text)
        #expect(result.issues.isEmpty)
        #expect(result.lines == [5, 6])
        #expect(
            result.fixes == [
                Fix(device: "/dev/ttyUSB0", coordinate: Coordinate(latitude: 34.0, longitude: -116.0)),
                Fix(
                    device: "/dev/ttyUSB0", coordinate: Coordinate(latitude: 34.1, longitude: -116.1),
                    time: FixReading.time("2026-05-01T12:00:01Z"), accuracy: 7.5),
            ])
    }

    @Test func ownTracksSample() throws {
        let result = try FixReading.read(path: FixReading.fixture("owntracks.ndjson"))
        #expect(result.issues.isEmpty)
        // lwt, transition, waypoint and card are not locations.
        #expect(result.lines == [2, 4, 7])
        #expect(
            result.fixes == [
                Fix(
                    device: "jp", coordinate: Coordinate(latitude: 34.0189, longitude: -116.1742),
                    time: Timestamp(seconds: 1_777_636_800), accuracy: 12),
                Fix(
                    device: "jp", coordinate: Coordinate(latitude: 34.0123, longitude: -116.1671),
                    time: Timestamp(seconds: 1_777_636_860), accuracy: 8),
                Fix(
                    device: "kb", coordinate: Coordinate(latitude: 34.015, longitude: -116.17),
                    time: Timestamp(seconds: 1_777_636_900), accuracy: 25),
            ])
    }

    struct BadLine: Sendable, CustomTestStringConvertible {
        var line: String
        var reason: String
        var testDescription: String { reason }
    }

    static let badLines: [BadLine] = [
        BadLine(line: #"{"lat":1,"lon":2"#, reason: "invalid JSON at byte 16: unexpected end of input in an object"),
        BadLine(line: #"{"lat":1 "lon":2}"#, reason: "invalid JSON at byte 9: expected ',' or '}' in an object"),
        BadLine(line: #"{"lat":NaN,"lon":2}"#, reason: "invalid JSON at byte 7: unexpected character 'N'"),
        BadLine(line: #"{"lat":01,"lon":2}"#, reason: "invalid JSON at byte 7: leading zero in a number"),
        BadLine(line: #"[34.0,-116.0]"#, reason: "expected a JSON object, found an array"),
        BadLine(line: #"{"lon":2}"#, reason: "missing latitude (lat, latitude)"),
        BadLine(line: #"{"lat":2}"#, reason: "missing longitude (lon, lng, longitude)"),
        BadLine(line: #"{"lat":null,"lon":2}"#, reason: "missing latitude (lat, latitude)"),
        BadLine(line: #"{"lat":"north","lon":2}"#, reason: "latitude \"north\" is not a number"),
        BadLine(line: #"{"lat":true,"lon":2}"#, reason: "latitude is a boolean, not a number"),
        BadLine(line: #"{"lat":"NaN","lon":2}"#, reason: "latitude is not a finite number"),
        BadLine(line: #"{"lat":1e999,"lon":2}"#, reason: "latitude is not a finite number"),
        BadLine(line: #"{"lat":91,"lon":2}"#, reason: "latitude 91.0 is outside [-90, 90]"),
        BadLine(line: #"{"lat":-90.5,"lon":2}"#, reason: "latitude -90.5 is outside [-90, 90]"),
        BadLine(line: #"{"lat":1,"lon":180.0001}"#, reason: "longitude 180.0001 is outside [-180, 180]"),
        BadLine(line: #"{"lat":1,"lon":2,"acc":"good"}"#, reason: "accuracy \"good\" is not a number"),
        BadLine(
            line: #"{"lat":1,"lon":2,"time":"yesterday"}"#,
            reason: "time \"yesterday\" is neither an RFC 3339 date-time nor epoch seconds"),
        BadLine(
            line: #"{"lat":1,"lon":2,"time":"2026-13-01T00:00:00Z"}"#,
            reason: "time \"2026-13-01T00:00:00Z\" is neither an RFC 3339 date-time nor epoch seconds"),
        BadLine(line: #"{"lat":1,"lon":2,"device":true}"#, reason: "device is a boolean, not a string or a number"),
        BadLine(line: #"{"lat":1,"lon":2,"device":{"name":"x"}}"#, reason: "device is an object, not a string or a number"),
    ]

    /// Each bad line gives one issue naming source, line and reason; the good lines around it
    /// are all read.
    @Test(arguments: badLines)
    func badLineIsReportedAndTheStreamGoesOn(_ bad: BadLine) throws {
        let good = #"{"device":"d1","lat":34.0,"lon":-116.0}"#
        let result = try FixReading.read([good, bad.line, good].joined(separator: "\n"))
        #expect(result.issues == ["<source>:2: \(bad.reason)"])
        #expect(result.lines == [1, 3])
    }
}
