import Foundation
import Testing

@_spi(Inlining) @testable import LandmarkNearCore
@testable import LandmarkNearEngine
@testable import LandmarkNearOutputs

/// docs/reference/state.md, resume, on NMEA: a GGA (or GLL, GNS) has only a time of day, dated by the latest
/// RMC before it in the stream (docs/reference/fixes.md). Split after that RMC and run as two processes with
/// one `--state` file, the second run must still date the GGA from it: the same lines, the
/// same `.apns` files and the same device state as one run over the whole trace.
@Suite(.serialized, .suiteTimeLimit)
struct NMEAResumeTests {
    /// A drive past Turtle Rock that crosses midnight, one sentence every 5 s, RMC and GGA in
    /// turn, each at its own position: the enters and exits fall on GGA sentences, one of them
    /// the first sentence after midnight (dated the next day from the RMC before it). A GSA and
    /// a comment line are records that are not fixes.
    static let crafted: [String] = {
        // Distances from Turtle Rock (m): radius 8046.72, exit beyond 8449.056.
        let distances: [Double] = [
            20_000, 15_000, 10_000, 7_000, 4_000, 2_000, 4_000, 9_000, 9_500, 7_800,
            8_300, 8_600, 15_000, 16_000, 17_000, 18_000, 19_000, 18_000, 16_000, 14_000,
            12_000, 11_000, 9_000, 6_000, 3_000, 1_000, 5_000, 9_000, 20_000, 30_000,
        ]
        let start: Int64 = 1_777_679_885  // 2026-05-01T23:58:05Z: sentence 23 is at 00:00:00 on the 2nd
        var lines: [String] = []
        for (index, distance) in distances.enumerated() {
            let point = EngineFixtures.point(distance, azimuth: Double(index * 12))
            let time = Timestamp(seconds: start + Int64(index) * 5)
            lines.append(index % 2 == 0 ? NMEASentence.rmc(point, time: time) : NMEASentence.gga(point, time: time))
            if index == 5 { lines.append("$GPGSA,A,3,04,05,09,12,17,19,24,25,,,,,1.8,1.0,1.5*3A\n") }
            if index == 14 { lines.append("# gpsd: a comment in the log\n") }
        }
        return lines
    }()

    /// The sample's lines as they are (CRLF), split at each `\n` byte.
    static let roadTrip: [String] = {
        let bytes = (try? Data(contentsOf: repositoryRoot.appendingPathComponent("Samples/road-trip.nmea"))) ?? Data()
        return bytes.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast()
            .map { String(decoding: $0, as: UTF8.self) + "\n" }
    }()

    struct Trace: Sendable, CustomTestStringConvertible {
        var name: String
        var lines: [String]
        var splits: [Int]
        var testDescription: String { name }
    }

    static let traces: [Trace] = [
        // Every boundary of the crafted trace.
        Trace(name: "crafted", lines: crafted, splits: Array(0...crafted.count)),
        // The gpsd header, the first sentences, around the enter at Turtle Rock (line 118),
        // the exit (line 301), the jump to July (line 460) and St. Mary Lake, the end.
        Trace(
            name: "road-trip", lines: roadTrip,
            splits: [0, 2, 3, 4, 5, 117, 118, 119, 300, 301, 302, 459, 460, 461, 700, 1000, 1053, roadTrip.count]),
    ]

    static let options = ["--format", "nmea", "--events", "all", "--cooldown", "0"]

    struct Outcome: Equatable {
        var lines: [String]
        var files: [String: Data]
        var devices: [DeviceSnapshot]
    }

    static func devices(in state: String) throws -> [DeviceSnapshot] {
        try StateStore(path: state).loadDevices().sorted { $0.device < $1.device }
    }

    @Test(arguments: traces)
    func splitAtEveryPointPrintsAndWritesWhatOneRunDoes(_ trace: Trace) async throws {
        let directory = try makeTemporaryDirectory("nmea-resume")
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(trace.lines.count > 20)

        let referenceState = directory.appendingPathComponent("reference.db").path
        let referenceApns = directory.appendingPathComponent("reference-apns")
        let one = try await runTool(
            ["watch"] + Self.options + ["--state", referenceState, "--apns-dir", referenceApns.path],
            stdin: trace.lines.joined())
        #expect(one.status == 0, "\(one.stderr)")
        let reference = Outcome(
            lines: ServiceTrace.lines(of: one.stdout), files: ServiceTrace.files(in: referenceApns),
            devices: try Self.devices(in: referenceState))
        #expect(reference.lines.count >= 4 && reference.files.count >= 2, "\(one.stdout)")

        for split in trace.splits {
            let state = directory.appendingPathComponent("split-\(split).db").path
            let apns = directory.appendingPathComponent("split-\(split)-apns")
            let arguments = ["watch"] + Self.options + ["--state", state, "--apns-dir", apns.path]
            let first = try await runTool(arguments, stdin: trace.lines[..<split].joined())
            let second = try await runTool(arguments, stdin: trace.lines[split...].joined())
            #expect(first.status == 0 && second.status == 0, "split at \(split): \(first.stderr) \(second.stderr)")
            let outcome = Outcome(
                lines: ServiceTrace.lines(of: first.stdout) + ServiceTrace.lines(of: second.stdout),
                files: ServiceTrace.files(in: apns), devices: try Self.devices(in: state))
            #expect(outcome.lines == reference.lines, "split at \(split)")
            #expect(outcome.files.keys.sorted() == reference.files.keys.sorted(), "split at \(split)")
            #expect(outcome.files == reference.files, "split at \(split)")
            #expect(outcome.devices == reference.devices, "split at \(split): the fix counter and latest time as in one run")
        }
    }

    /// The first run stopped by SIGINT on a live pipe after the RMC: its date is saved with
    /// the rest of the state, and the second run dates the GGA from it.
    @Test func aSignalStopKeepsTheDateOfTheLatestRMC() async throws {
        let directory = try makeTemporaryDirectory("nmea-resume-signal")
        defer { try? FileManager.default.removeItem(at: directory) }
        let rmc = NMEASentence.rmc(EngineFixtures.point(12_000), time: Timestamp(seconds: 1_777_636_800))
        let gga = NMEASentence.gga(EngineFixtures.point(100), time: Timestamp(seconds: 1_777_636_801))
        let state = directory.appendingPathComponent("s.db").path
        let apns = directory.appendingPathComponent("apns")
        let arguments = ["watch", "--state", state, "--apns-dir", apns.path]
        let tool = try LiveTool(arguments)
        tool.write(rmc)
        tool.waitUntilInputDrained()
        usleep(100_000)
        tool.signal(SIGINT)
        #expect(tool.wait() == 130, "\(tool.stderr)")
        let second = try await runTool(arguments, stdin: gga)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout.contains(#""time":"2026-05-01T12:00:01Z""#), "\(second.stdout)")
        #expect(ServiceTrace.files(in: apns).keys.sorted() == ["default-1001-20260501T120001Z.apns"])
    }

    /// Within one run each input is a stream of its own (as Spark's per-file reading has it):
    /// a GGA before the first RMC of the second file has no time, whatever the first file
    /// said. Only the first input of a run goes on with the date of the run before.
    @Test func eachInputOfOneRunIsAStreamOfItsOwn() async throws {
        let directory = try makeTemporaryDirectory("nmea-inputs")
        defer { try? FileManager.default.removeItem(at: directory) }
        let a = directory.appendingPathComponent("a.nmea")
        let b = directory.appendingPathComponent("b.nmea")
        try Data(Self.crafted[..<25].joined().utf8).write(to: a)  // b starts with the GGA after midnight
        try Data(Self.crafted[25...].joined().utf8).write(to: b)
        let state = directory.appendingPathComponent("s.db").path
        let files = try await runTool(["watch"] + Self.options + ["--state", state, a.path, b.path])
        #expect(files.status == 0, "\(files.stderr)")
        let enters = ServiceTrace.lines(of: files.stdout).filter { $0.contains(#""event":"enter""#) }
        #expect(enters.last?.contains(#""time":null"#) == true, "\(files.stdout)")
        // The state holds the date of b's last RMC (sentence 28), for the run that goes on with b.
        #expect(try StateStore(path: state).loadNMEADates() == [Fix.defaultDevice: Timestamp(seconds: 1_777_679_885 + 28 * 5)])
    }
}

/// NMEA 0183 position sentences for tests (no checksum: it is optional).
extension NMEASentence {
    static func rmc(_ point: Coordinate, time: Timestamp) -> String {
        let (day, clock) = parts(time)
        return "$GPRMC,\(clock),A,\(position(point)),0.0,0.0,\(day),,,A\n"
    }

    static func gga(_ point: Coordinate, time: Timestamp) -> String {
        "$GPGGA,\(parts(time).clock),\(position(point)),1,08,1.0,100.0,M,-31.4,M,,\n"
    }

    /// `ddmmyy` and `hhmmss.ss` in UTC.
    private static func parts(_ time: Timestamp) -> (day: String, clock: String) {
        let text = time.rfc3339  // 2026-05-01T12:00:00Z
        let characters = Array(text)
        let year = String(characters[2..<4])
        let month = String(characters[5..<7])
        let day = String(characters[8..<10])
        let clock = String(characters[11..<13]) + String(characters[14..<16]) + String(characters[17..<19]) + ".00"
        return (day + month + year, clock)
    }

    private static func position(_ point: Coordinate) -> String {
        angle(point.latitude, degreeDigits: 2, positive: "N", negative: "S") + ","
            + angle(point.longitude, degreeDigits: 3, positive: "E", negative: "W")
    }

    /// `ddmm.mmmmmm,H` (or `dddmm.mmmmmm,H`).
    private static func angle(_ value: Double, degreeDigits: Int, positive: String, negative: String) -> String {
        let magnitude = abs(value)
        let degrees = Int(magnitude)
        let millionths = Int(((magnitude - Double(degrees)) * 60 * 1_000_000).rounded())
        let whole = String(millionths / 1_000_000)
        let fraction = String(millionths % 1_000_000)
        let degreeText = String(repeating: "0", count: max(0, degreeDigits - String(degrees).count)) + String(degrees)
        let minuteText = String(repeating: "0", count: max(0, 2 - whole.count)) + whole
        return degreeText + minuteText + "." + String(repeating: "0", count: 6 - fraction.count) + fraction
            + "," + (value >= 0 ? positive : negative)
    }
}
