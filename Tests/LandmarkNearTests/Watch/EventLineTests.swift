import Foundation
import Testing

@_spi(Inlining) @testable import LandmarkNearCore
@testable import LandmarkNearEngine
@testable import LandmarkNearOutputs

@Suite(.suiteTimeLimit) struct EventLineTests {
    let landmark = LandmarkCatalog.embedded[1]
    let payload =
        #"{"aps":{"alert":{"title":"Silver Salmon Creek","body":"You are within 5 miles of Silver Salmon Creek."},"category":"LandmarkNear","thread-id":"5280"},"landmarkIndex":1}"#

    @Test func notificationLineHasTheSpecShape() throws {
        let fix = Fix(
            device: "d1", coordinate: Coordinate(latitude: 59.99, longitude: -152.66),
            time: Timestamp(rfc3339: "2026-05-01T12:00:02Z"))
        let event = ProximityEvent(kind: .enter, landmarkIndex: 1, distance: 1234.5004)
        let line = EventLine.make(
            event: event, fix: fix, landmarkID: landmark.id, landmarkName: landmark.name, payload: payload, includeNotified: false)
        #expect(
            line
                == #"{"event":"enter","device":"d1","time":"2026-05-01T12:00:02Z","fix":{"lat":59.99,"lon":-152.66},"landmark":{"index":1,"id":1002,"name":"Silver Salmon Creek"},"distanceMeters":1234.5,"payload":"#
                + payload + "}")
        let parsed = try JSONParser.parse(line)
        #expect(parsed["payload"]?["landmarkIndex"]?.integer == 1)
    }

    @Test func suppressedAndExitLinesUnderEventsAll() throws {
        let fix = Fix(device: "we\"ird/\n", coordinate: Coordinate(latitude: 1, longitude: 2))
        let suppressed = EventLine.make(
            event: ProximityEvent(kind: .enter, landmarkIndex: 1, distance: 10, suppression: .cooldown),
            fix: fix, landmarkID: landmark.id, landmarkName: landmark.name, payload: nil, includeNotified: true)
        let value = try JSONParser.parse(suppressed)
        #expect(value["device"]?.stringValue == "we\"ird/\n")
        #expect(value["time"] == .null)
        #expect(value["notified"] == .bool(false))
        #expect(value["reason"]?.stringValue == "cooldown")
        #expect(value["payload"] == nil)
        let exit = try JSONParser.parse(
            EventLine.make(
                event: ProximityEvent(kind: .exit, landmarkIndex: 1, distance: 9000),
                fix: fix, landmarkID: landmark.id, landmarkName: landmark.name, payload: nil, includeNotified: true))
        #expect(exit["event"]?.stringValue == "exit")
        #expect(exit["notified"] == nil)
        #expect(exit.objectValue?.keys == ["event", "device", "time", "fix", "landmark", "distanceMeters"])
    }

    /// The line writes times and strings itself (for speed); they must be what
    /// `Timestamp.rfc3339` and `JSONWriter.appendString` write.
    @Test func timesAreWrittenAsRFC3339Writes() {
        var generator = SplitMix64(seed: 10)
        var times = [
            Timestamp(seconds: 0), Timestamp(seconds: -1), Timestamp(seconds: -62_135_596_800),
            Timestamp(seconds: -62_135_596_801), Timestamp(seconds: 253_402_300_799, nanoseconds: 999_999_999),
            Timestamp(seconds: 253_402_300_800), Timestamp(seconds: 1_777_636_802, nanoseconds: 500_000_000),
            Timestamp(seconds: 1_777_636_802, nanoseconds: 1), Timestamp(seconds: -100_000_000_000),
        ]
        for _ in 0..<20_000 {
            let seconds = Int64(bitPattern: generator.next() % 600_000_000_000) - 200_000_000_000
            let nanoseconds = generator.next() % 3 == 0 ? 0 : Int32(generator.next() % 1_000_000_000)
            times.append(Timestamp(seconds: seconds, nanoseconds: nanoseconds))
        }
        for time in times {
            #expect(EventLine.rfc3339(time) == time.rfc3339)
        }
    }

    /// Distances are written digit by digit from whole millimetres (`LineBytes.put(millimetres:)`);
    /// the text must be what `JSONWriter.number` writes for the rounded double, over every
    /// length an event can have (from 0 to beyond the Earth's half circumference, log-uniform
    /// and at half-millimetre ties), and past where the digits stop (10^12 m and on).
    @Test func distancesAreWrittenAsJSONWriterWrites() {
        var generator = SplitMix64(seed: 14)
        var distances: [Double] = [
            0, -0.0, 0.0004, 0.0005, 0.0006, 0.001, 0.0015, 0.01, 0.1, 0.5, 1, 9.9995, 999.9995, 999.999, 1000,
            8046.72, 8046.7205, 8046.721, 20_037_508.342789, 1e9 + 0.001, 999_999_999_999.999, 999_999_999_999.9995,
            1e12, 1e12 + 0.5, 1e15, 1e16, 1e300, -1, -0.0004, .nan, .infinity, -.infinity, .leastNonzeroMagnitude,
        ]
        for _ in 0..<1_000_000 {
            // 10^-4 m to 2.5 * 10^7 m.
            let magnitude = Double(generator.next() % 1_000_000) / 1_000_000 * 11.4 - 4
            var metres = pow(10, magnitude)
            // One in eight a tie: a whole number of half millimetres.
            if generator.next() % 8 == 0 { metres = (metres * 2000).rounded() / 2000 }
            distances.append(metres)
        }
        var mismatches: [String] = []
        for metres in distances where EventLine.distanceText(metres) != JSONWriter.number(ReportedDistance.millimetres(metres)) {
            mismatches.append("\(metres): \(EventLine.distanceText(metres)) != \(JSONWriter.number(ReportedDistance.millimetres(metres)))")
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(10))")
        #expect(EventLine.distanceText(8046.7205) == "8046.721")
        #expect(EventLine.distanceText(1234.0004) == "1234")
        #expect(EventLine.distanceText(0.05) == "0.05")
    }

    @Test(arguments: [
        "d1", "", "caf\u{E9}", "cafe\u{301}", "a\"b", "a\\b", "tab\there", "nul\u{0}", "del\u{7F}", "\u{1F}", "🚗 car", "line\n",
    ])
    func stringsAreEscapedAsJSONWriterEscapes(_ text: String) {
        var expected = ""
        JSONWriter.appendString(text, to: &expected)
        #expect(Array(EventLine.jsonString(text).utf8) == Array(expected.utf8))
    }

    /// The line is written into room counted beforehand: integers of every width, names
    /// that escape to six bytes a character, a long payload and a time `Timestamp.rfc3339`
    /// writes (year 10000) must all fit, and read back as they were.
    @Test(arguments: [0, 7, -1, 1002, 1_234_567_890_123, Int.max, Int.min])
    func everyPieceFitsAndReadsBack(_ id: Int) throws {
        let name = String(repeating: "\u{1}\"é", count: 300)
        let device = String(repeating: "\\\u{7F}", count: 200)
        let landmark = Landmark(id: id, name: name, coordinate: Coordinate(latitude: -89.999999999, longitude: 179.123456789))
        let time = Timestamp(seconds: 253_402_300_800, nanoseconds: 120_000_000)
        let fix = Fix(device: device, coordinate: Coordinate(latitude: -12.345678901234, longitude: 0.000001), time: time)
        let payload = "{\"aps\":{\"alert\":\"" + String(repeating: "x", count: 3000) + "\"}}"
        let event = ProximityEvent(kind: .enter, landmarkIndex: 144_562, distance: 8046.7205)
        let line = EventLine.make(
            event: event, fix: fix, landmarkID: landmark.id, landmarkName: landmark.name, payload: payload, includeNotified: true)
        let value = try JSONParser.parse(line)
        #expect(line.contains(",\"id\":\(id),"))
        #expect(line.contains(#"{"index":144562,"#))
        #expect(value["landmark"]?["name"]?.stringValue == name)
        #expect(value["device"]?.stringValue == device)
        #expect(value["time"]?.stringValue == time.rfc3339)
        #expect(value["distanceMeters"] == .number(8046.721))
        #expect(value["notified"] == .bool(true))
        #expect(line.hasSuffix(",\"payload\":" + payload + "}"))
    }
}
