import Foundation
import Testing

@_spi(Inlining) @testable import LandmarkNearCore
@testable import LandmarkNearEngine
@testable import LandmarkNearReaders

/// The stream defects found by fuzzing and by real gpsd (issue 9), each on an input shaped like
/// the one that showed it.
@Suite(.suiteTimeLimit) struct InputDefectsTests {
    /// gpsd 3.22's first TPV of a session: a mode, a time, no position yet.
    @Test func tpvWithModeButNoPositionIsSkippedSilently() throws {
        let text = """
            {"class":"VERSION","release":"3.22","rev":"3.22","proto_major":3,"proto_minor":14}
            {"class":"TPV","device":"/dev/pts/1","mode":3,"time":"2026-04-30T23:59:48.000Z","ept":0.005}
            {"class":"TPV","device":"/dev/pts/1","mode":2,"lat":34.02045,"time":"2026-04-30T23:59:48.500Z"}
            {"class":"TPV","device":"/dev/pts/1","mode":3,"time":"2026-04-30T23:59:49.000Z","lat":34.02045,"lon":-116.17498}
            """
        let result = try FixReading.read(text)
        #expect(result.issues.isEmpty)
        #expect(result.lines == [4])
        let reader = try FixReader(input: .file(try FixReading.file(text)), format: nil)
        while try reader.next() != nil {}
        #expect(reader.skipped.description == "1 gpsd VERSION, 2 TPV without lat/lon")
    }

    @Test(arguments: [
        (#"{"lat":34,"lon":-116,"acc":1e999}"#, "<source>:1: accuracy infinity is not a finite number"),
        (#"{"lat":34,"lon":-116,"acc":"NaN"}"#, "<source>:1: accuracy \"NaN\" is not a finite number"),
        (#"{"lat":34,"lon":-116,"accuracy":"-inf"}"#, "<source>:1: accuracy \"-inf\" is not a finite number"),
        ("lat,lon,accuracy\n34,-116,inf", "<source>:2: accuracy \"inf\" is not a finite number"),
    ])
    func nonFiniteAccuracyIsUnreadable(_ text: String, _ issue: String) throws {
        let result = try FixReading.read(text)
        #expect(result.fixes.isEmpty)
        #expect(result.issues == [issue])
    }

    /// `34,N,116,W` was read as 0°34′ N, 1°16′ W: too few digits before the point.
    @Test(
        arguments: [
            ("3401.2270", "11610.4988", nil),
            ("34", "11610.4988", "latitude \"34\" is not ddmm.mmmm"),
            ("3401.2270", "116", "longitude \"116\" is not dddmm.mmmm"),
            ("340.12270", "11610.4988", "latitude \"340.12270\" is not ddmm.mmmm"),
            ("3401.2270", "1161.04988", "longitude \"1161.04988\" is not dddmm.mmmm"),
            ("3460.0000", "11610.4988", "latitude \"3460.0000\" is not ddmm.mmmm: 60 minutes or more"),
            ("3401.2270", "-11610.4988", "longitude \"-11610.4988\" is not dddmm.mmmm"),
        ] as [(String, String, String?)])
    func nmeaCoordinatesNeedTheirDigits(_ latitude: String, _ longitude: String, _ problem: String?) throws {
        let sentence = NMEASentence.make("GPGGA,235949.00,\(latitude),N,\(longitude),W,1,09,0.9,1234.5,M,-31.2,M,,")
        let result = try FixReading.read(sentence + "\n")
        if let problem {
            #expect(result.fixes.isEmpty)
            #expect(result.issues == ["<source>:1: GPGGA: \(problem)"])
        } else {
            #expect(result.issues.isEmpty)
            #expect(result.fixes.count == 1)
        }
    }

    @Test func calendarDatesMustExist() throws {
        let json = try FixReading.read(
            #"{"lat":1,"lon":2,"time":"2026-02-31T00:00:00Z"}"# + "\n" + #"{"lat":1,"lon":2,"time":"2024-02-29T00:00:00Z"}"#)
        #expect(json.fixes.count == 1)
        #expect(json.issues == [#"<source>:1: time "2026-02-31T00:00:00Z" is neither an RFC 3339 date-time nor epoch seconds"#])
        let nmea = try FixReading.read(NMEASentence.make("GPRMC,120000.00,A,3401.2270,N,11610.4988,W,0.5,54.7,310226,,,A") + "\n")
        #expect(nmea.issues == [#"<source>:1: GPRMC: date "310226" is not ddmmyy"#])
    }

    /// libxml2 stops at a value over 10 MB unless told XML_PARSE_HUGE: the points after it were lost.
    @Test func gpxAttributeOverTenMegabytesLosesNothingElse() throws {
        let huge = String(repeating: "1", count: 11 << 20)
        let text = "<gpx>\n<wpt lat=\"1\" lon=\"2\"/>\n<wpt lat=\"\(huge)\" lon=\"2\"/>\n<wpt lat=\"3\" lon=\"4\"/>\n</gpx>\n"
        let result = try FixReading.read(text)
        #expect(result.fixes.map(\.coordinate) == [Coordinate(latitude: 1, longitude: 2), Coordinate(latitude: 3, longitude: 4)])
        #expect(result.issues.count == 1)
        #expect(result.issues.first?.hasPrefix("<source>:3: <wpt> lat \"1111") == true)
    }

    /// "café" as U+00E9 and as "e" + U+0301 are two devices: each is notified.
    @Test func deviceNamesAreComparedByBytes() throws {
        let composed = "caf\u{E9}"
        let decomposed = "cafe\u{301}"
        #expect(composed == decomposed)  // Swift's String equality is Unicode equivalence
        var configuration = EngineConfiguration()
        configuration.profiles = try ProfilesFile.parse(Array(#"{"caf\u00e9": {"prefersNotifications": false}}"#.utf8), source: "p")
        let engine = try ProximityEngine(catalog: .embedded, configuration: configuration)
        var events: [ProximityEvent] = []
        let rock = Coordinate(latitude: 34.011286, longitude: -116.166868)
        _ = engine.process(Fix(device: composed, coordinate: rock), into: &events)
        #expect(events.map(\.isNotification) == [false])  // its profile
        events.removeAll()
        _ = engine.process(Fix(device: decomposed, coordinate: rock), into: &events)
        #expect(events.map(\.isNotification) == [true])  // another device, no profile
        #expect(engine.deviceCount == 2)
    }
}

/// NMEA sentences with their checksum, for tests.
enum NMEASentence {
    static func make(_ body: String) -> String {
        let checksum = body.utf8.reduce(UInt8(0), ^)
        return "$" + body + "*" + String(format: "%02X", checksum)
    }
}
