import Foundation
import Testing

@_spi(Inlining) @testable import LandmarkNearCore
@_spi(Inlining) @testable import LandmarkNearGeodesy

/// `Scripts/spark-watch.py` in Spark's local mode against one `landmark-near watch` process over
/// the same input: the notifications must be the same, per device and in order.
///
/// Spark takes seconds to start, so the cases run as one `--batch` (one Spark session, jobs in
/// turn) the first time a test needs them; each test then checks its own job. The generated load
/// has `LANDMARK_SPARK_TEST_FIXES` fixes (default 200,000 of 10,000 devices, which keeps CI
/// short with a debug build; the 1,000,000-fix run is Benchmarks/spark-watch-bench.py's).
@Suite(.serialized, .timeLimit(.minutes(10)))
struct SparkWatchTests {
    static let devices = 10_000

    // MARK: the batch

    struct Job: Sendable {
        var name: String
        var inputs: [String]
        var partitions: Int
        var watchOptions: [String] = []
        var extra: [String] = []
    }

    struct Outcome: Sendable {
        var status: Int
        var stderr: String
        var out: URL
    }

    struct Batch: Sendable {
        var directory: URL
        var jobs: [String: Job] = [:]
        var outcomes: [String: Outcome] = [:]
        var failure: String?
    }

    /// Run once, by the first test that needs it (a static let is initialised once), off the
    /// cooperative pool; every test awaits the same task.
    static let batchTask = Task<Batch, Never> { await makeBatch() }

    static func batch() async -> Batch { await batchTask.value }

    static func makeBatch() async -> Batch {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("spark-watch-tests-\(UUID().uuidString)")
        var batch = Batch(directory: directory)
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let fixCount = ProcessInfo.processInfo.environment["LANDMARK_SPARK_TEST_FIXES"].flatMap(Int.init) ?? 200_000
            let load = try SparkLoad.write(
                into: directory.appendingPathComponent("load"), devices: devices,
                seconds: max(1, fixCount / devices), seed: 15)
            let fixtures = repositoryRoot.appendingPathComponent("Tests/LandmarkNearTests/Fixtures/Fixes")
            let traces = [
                "owntracks.ndjson", "gpslogger.csv", "gpsd/gpspipe-w.ndjson", "gpsd/gpspipe-r.nmea",
                "gpsd/gpsfake-drive.nmea", "mixed-talkers.nmea", "gpx/route.gpx", "gpx/around-visnjan-with-car.gpx",
                "gpx/gpx1.0_with_all_fields.gpx", "gpx/unicode_with_bom.gpx",
            ].map { fixtures.appendingPathComponent($0).path }
            let few = try SparkLoad.write(into: directory.appendingPathComponent("few"), devices: 3, seconds: 300, seed: 3)
            let one = try SparkLoad.write(into: directory.appendingPathComponent("one"), devices: 1, seconds: 2000, seed: 1)
            let empty = directory.appendingPathComponent("empty.ndjson")
            try Data().write(to: empty)
            let bad = try SparkLoad.writeWithBadRecords(into: directory.appendingPathComponent("bad"))
            // Fault injection for one failing partition: the real tool, except that a `watch`
            // given fixes fails as on a full disk (status 74). (The option check on the driver
            // runs watch with no input, so it passes.)
            let failing = directory.appendingPathComponent("failing-landmark-near")
            try """
            #!/bin/sh
            if [ "$1" = watch ] && [ -n "$(head -c 1)" ]; then
              echo "landmark-near watch: stdout: No space left on device" >&2; exit 74
            fi
            exec '\(try toolExecutableURL().path)' "$@"

            """.write(to: failing, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: failing.path)
            let jobs = [
                Job(name: "load", inputs: [load.path], partitions: 8, extra: ["--merged"]),
                Job(name: "traces", inputs: traces, partitions: 4, watchOptions: ["--favorites", "all", "--events", "all"]),
                Job(name: "few", inputs: [few.path], partitions: 16, watchOptions: ["--events", "all"]),
                Job(name: "one", inputs: [one.path], partitions: 4),
                Job(name: "empty", inputs: [empty.path], partitions: 3),
                Job(name: "bad", inputs: bad.map(\.path), partitions: 2, watchOptions: ["--events", "all"]),
                Job(name: "uri", inputs: ["file://" + one.path], partitions: 2),
                Job(name: "failing", inputs: [one.path], partitions: 2, extra: ["--binary", failing.path]),
            ]
            let tool = try toolExecutableURL().path
            var lines: [String] = []
            for job in jobs {
                let out = directory.appendingPathComponent("out-\(job.name)")
                let arguments =
                    job.inputs + ["--out", out.path, "--partitions", String(job.partitions), "--binary", tool]
                    + job.extra + (job.watchOptions.isEmpty ? [] : ["--"] + job.watchOptions)
                lines.append(JSONWriter.serialize(.array(arguments.map(JSONValue.string))))
                batch.jobs[job.name] = job
                batch.outcomes[job.name] = Outcome(status: -1, stderr: "", out: out)
            }
            let jobsFile = directory.appendingPathComponent("jobs.ndjson")
            try (lines.joined(separator: "\n") + "\n").write(to: jobsFile, atomically: true, encoding: .utf8)
            let result = try await runSparkWatch(["--batch", jobsFile.path, "--master", "local[2]"], timeout: 540)
            let reports = result.stdout.split(separator: "\n").map(String.init)
            guard reports.count == jobs.count else {
                batch.failure =
                    "spark-watch --batch gave \(reports.count) reports for \(jobs.count) jobs (status \(result.status)): \(result.stderr)"
                return batch
            }
            for (job, report) in zip(jobs, reports) {
                let value = try JSONParser.parse(report)
                batch.outcomes[job.name]?.status = value["status"]?.integer ?? -1
                batch.outcomes[job.name]?.stderr = value["stderr"]?.stringValue ?? ""
            }
        } catch {
            batch.failure = "\(error)"
        }
        return batch
    }

    /// The job's outcome, and one `watch` process over the same inputs with the same options.
    private func outcome(_ name: String) async throws -> (Outcome, ToolResult, Job) {
        let batch = await Self.batch()
        if let failure = batch.failure { throw SparkTestFailure(failure) }
        let job = try #require(batch.jobs[name])
        let outcome = try #require(batch.outcomes[name])
        let inputs = job.inputs.map { $0.hasPrefix("file://") ? String($0.dropFirst(7)) : $0 }
        let expandedInputs = try inputs.flatMap(SparkLoad.files(of:))
        let arguments = ["watch"] + expandedInputs + job.watchOptions
        let single = try await runTool(arguments, timeout: 120)
        return (outcome, single, job)
    }

    // MARK: comparisons

    /// Lines by device (the device's UTF-8 bytes: "café" and "cafe\u{301}" are two devices).
    static func byDevice(_ lines: [String]) throws -> [[UInt8]: [String]] {
        var grouped: [[UInt8]: [String]] = [:]
        for line in lines {
            let device = try #require(JSONParser.parse(line)["device"]?.stringValue)
            grouped[Array(device.utf8), default: []].append(line)
        }
        return grouped
    }

    static func partFiles(_ out: URL) throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: out, includingPropertiesForKeys: nil)
            .filter { $0.lastPathComponent.hasPrefix("part-") }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    static func lines(of url: URL) throws -> [String] {
        try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    /// The job's notifications equal one process's per device and in order; every device's
    /// notifications are in one part file; there is one part file a partition.
    private func expectSameNotifications(_ name: String) async throws -> (Outcome, ToolResult) {
        let (outcome, single, job) = try await outcome(name)
        let parts = try Self.partFiles(outcome.out)
        #expect(parts.count == job.partitions, "\(name): \(parts.count) part files")
        var all: [String] = []
        var partOfDevice: [[UInt8]: Int] = [:]
        for (index, part) in parts.enumerated() {
            let partLines = try Self.lines(of: part)
            for device in try Self.byDevice(partLines).keys {
                #expect(partOfDevice.updateValue(index, forKey: device) == nil, "\(name): a device in two part files")
            }
            all += partLines
        }
        let expected = single.stdout.split(separator: "\n").map(String.init)
        #expect(try Self.byDevice(all) == Self.byDevice(expected), "\(name): notifications differ from one watch process's")
        #expect(all.sorted() == expected.sorted())
        #expect(outcome.status == Int(single.status), "\(name): \(outcome.stderr)")
        return (outcome, single)
    }

    /// `<source>:<line>: <reason>` lines of a stderr text, in order.
    static func issueLines(_ text: String) -> [String] {
        text.split(separator: "\n").map(String.init).filter { $0.range(of: #":\d+: "#, options: .regularExpression) != nil }
    }

    // MARK: tests

    @Test func generatedLoadMatchesOneProcess() async throws {
        let (outcome, single) = try await expectSameNotifications("load")
        let expected = single.stdout.split(separator: "\n").map(String.init)
        #expect(expected.count > 100, "the load should notify: \(single.stderr)")
        // The summed summary is the one process's, plus the partition and file counts.
        let summary = try #require(outcome.stderr.split(separator: "\n").last.map(String.init))
        let processSummary = try #require(single.stderr.split(separator: "\n").last.map(String.init))
        #expect(
            summary.hasPrefix(processSummary.replacingOccurrences(of: "landmark-near watch: ", with: "spark-watch: ")),
            "\(summary) vs \(processSummary)")
        #expect(summary.hasSuffix("; 8 partitions, 4 input files"))
        // merged.ndjson: every notification once, ordered by fix time.
        let merged = try Self.lines(of: outcome.out.appendingPathComponent("merged.ndjson"))
        #expect(merged.sorted() == expected.sorted())
        // (untimed ones last)
        let times = try merged.map { try JSONParser.parse($0)["time"]?.stringValue.flatMap { Timestamp(rfc3339: $0) } }
        let timed = times.prefix { $0 != nil }.map { $0! }
        #expect(times.dropFirst(timed.count).allSatisfy { $0 == nil })
        #expect(zip(timed, timed.dropFirst()).allSatisfy { $0 <= $1 })
    }

    @Test func realTracesMatchOneProcess() async throws {
        let (outcome, single) = try await expectSameNotifications("traces")
        #expect(outcome.status == 65)
        // Unreadable records name their own file and line, as one process does.
        #expect(Self.issueLines(outcome.stderr) == Self.issueLines(single.stderr))
        #expect(Self.issueLines(outcome.stderr).contains { $0.contains("mixed-talkers.nmea:12: ") })
    }

    @Test func morePartitionsThanDevices() async throws {
        let (outcome, single) = try await expectSameNotifications("few")
        #expect(!single.stdout.isEmpty)
        let empty = try Self.partFiles(outcome.out).filter { (try? Data(contentsOf: $0))?.isEmpty ?? false }
        #expect(empty.count >= 13, "3 devices in 16 partitions leave at least 13 empty")
    }

    @Test func oneDeviceOnly() async throws {
        let (outcome, single) = try await expectSameNotifications("one")
        #expect(!single.stdout.isEmpty)
        let nonEmpty = try Self.partFiles(outcome.out).filter { (try? Data(contentsOf: $0))?.isEmpty == false }
        #expect(nonEmpty.count == 1)
    }

    @Test func emptyInput() async throws {
        let (outcome, _) = try await expectSameNotifications("empty")
        #expect(outcome.status == 0)
        #expect(outcome.stderr.contains("spark-watch: 0 fixes read, 0 used"))
    }

    @Test func badRecordsInTheMiddleOfAFileNameTheirFileAndLine() async throws {
        let (outcome, single) = try await expectSameNotifications("bad")
        #expect(outcome.status == 65)
        let issues = Self.issueLines(outcome.stderr)
        #expect(issues == Self.issueLines(single.stderr))
        #expect(issues.count == 3)
        #expect(issues.first { $0.contains("middle.ndjson:4: ") } != nil, "\(issues)")
        #expect(issues.first { $0.contains("middle.ndjson:6: ") } != nil, "\(issues)")
        #expect(issues.first { $0.contains("middle.csv:3: ") } != nil, "\(issues)")
        #expect(outcome.stderr.contains("3 unreadable"))
    }

    @Test func aFailingPartitionFailsTheJobWithOneClearLine() async throws {
        let batch = await Self.batch()
        if let failure = batch.failure { throw SparkTestFailure(failure) }
        let outcome = try #require(batch.outcomes["failing"])
        #expect(outcome.status == 74, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("spark-watch: partition "), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("landmark-near watch exited with status 74: landmark-near watch: stdout: No space left on device"))
        #expect(!outcome.stderr.contains("Traceback") && !outcome.stderr.contains("at org.apache"), "\(outcome.stderr)")
        #expect(!outcome.stderr.contains("fixes read"), "no summary for a failed job")
    }

    @Test func aFileURIIsReadThroughSpark() async throws {
        _ = try await expectSameNotifications("uri")
    }

    /// The task's acceptance line, run as a user would: plain `python3` (it re-runs itself with
    /// the venv's Python), a folder, 8 partitions; against `landmark-near watch < fixes`.
    @Test func folderWithEightPartitionsMatchesWatchOnStdin() async throws {
        let directory = try makeTemporaryDirectory("spark-watch")
        defer { try? FileManager.default.removeItem(at: directory) }
        let fixes = try SparkLoad.write(
            into: directory.appendingPathComponent("fixes"), devices: 40, seconds: 400, seed: 8,
            csvFile: false)
        let notes = directory.appendingPathComponent("notes")
        _ = try venvPython()
        let arguments = [
            fixes.path, "--out", notes.path, "--partitions", "8", "--master", "local[2]",
            "--binary", try toolExecutableURL().path,
        ]
        let result = try await runSparkWatch(arguments, python: URL(fileURLWithPath: "/usr/bin/python3"), timeout: 240)
        #expect(result.status == 0, "\(result.stderr)")
        let concatenated = try SparkLoad.files(of: fixes.path).map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
            .reduce(Data(), +)
        let single = try await runTool(["watch"], stdinData: concatenated)
        let expected = single.stdout.split(separator: "\n").map(String.init)
        let parts = try Self.partFiles(notes)
        #expect(parts.count == 8)
        let got = try parts.flatMap(Self.lines(of:))
        #expect(!expected.isEmpty)
        #expect(try Self.byDevice(got) == Self.byDevice(expected))
        #expect(result.stderr.contains("spark-watch: \(40 * 400) fixes read"), "\(result.stderr)")
    }

    struct StatusCaseWithText: Sendable, CustomTestStringConvertible {
        var arguments: [String]
        var status: Int32
        var text: String
        var testDescription: String { arguments.joined(separator: " ") + " -> \(status)" }
    }

    static let refusals: [StatusCaseWithText] = [
        .init(arguments: ["--help"], status: 0, text: "over Apache Spark"),
        .init(arguments: [], status: 64, text: "no INPUT"),
        .init(arguments: ["x.ndjson"], status: 64, text: "--out DIR is required"),
        .init(arguments: ["x.ndjson", "--out", "o", "--partitions", "0"], status: 64, text: "--partitions"),
        .init(arguments: ["x.ndjson", "--out", "o", "--bogus"], status: 64, text: "unrecognized"),
        .init(arguments: ["x.ndjson", "--out", "o", "--", "--apns-dir", "d"], status: 64, text: "--apns-dir is not supported"),
        .init(arguments: ["/nonexistent/fixes.ndjson", "--out", "o"], status: 66, text: "/nonexistent/fixes.ndjson: no such file"),
        .init(arguments: ["/nonexistent/*.csv", "--out", "o"], status: 66, text: "matches nothing"),
    ]

    /// Refused before Spark starts: usage errors 64, missing inputs 66, each with a clear line.
    @Test(arguments: refusals) func refusedBeforeSparkStarts(_ check: StatusCaseWithText) async throws {
        let arguments = ["--binary", try toolExecutableURL().path] + check.arguments
        let result = try await runSparkWatch(arguments, timeout: 60)
        #expect(result.status == check.status, "\(result.stderr)")
        #expect((result.stdout + result.stderr).contains(check.text), "\(result.stdout)\(result.stderr)")
    }
}

struct SparkTestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Generated fixes for the Spark tests: devices driving around the embedded favourites
/// (Turtle Rock, Chilkoot Trail, St. Mary Lake) at 1 Hz, seeded, in four files split by time (the
/// second one CSV), with the awkward parts of real traces: device names that differ only in
/// Unicode normalisation, names with '/' and '"', fractional times, untimed devices, repeated
/// seconds (stale) and poor accuracy (dropped).
enum SparkLoad {
    static let favourites = [
        Coordinate(latitude: 34.011286, longitude: -116.166868),
        Coordinate(latitude: 59.560551, longitude: -135.334571),
        Coordinate(latitude: 48.69423, longitude: -113.536248),
    ]

    static func name(_ device: Int) -> String {
        switch device {
        case 0: return "caf\u{E9}"
        case 1: return "cafe\u{301}"
        case 2: return "fleet/a"
        case 3: return "say \"hi\""
        default: return String(format: "dev%05d", device)
        }
    }

    /// Writes the load into `directory` (created) and returns it.
    static func write(into directory: URL, devices: Int, seconds: Int, seed: UInt64, csvFile: Bool = true) throws -> URL {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var rng = IndexTestSupport.SeededGenerator(seed: seed)
        var position: [Coordinate] = []
        var heading: [Double] = []
        var speed: [Double] = []
        for device in 0..<devices {
            let start = Geodesic.wgs84.destination(
                from: favourites[device % 3], azimuth: Double.random(in: 0..<360, using: &rng),
                distance: Double.random(in: 0...15_000, using: &rng))
            position.append(start)
            heading.append(Double.random(in: 0..<360, using: &rng))
            speed.append(Double.random(in: 5...30, using: &rng))
        }
        let fileCount = 4
        for file in 0..<fileCount {
            let isCSV = csvFile && file == 1
            var text = isCSV ? "device,lat,lon,time,accuracy\n" : ""
            for second in (file * seconds / fileCount)..<((file + 1) * seconds / fileCount) {
                for device in 0..<devices {
                    if second > 0 {
                        heading[device] += Double.random(in: -6...6, using: &rng)
                        position[device] = Geodesic.wgs84.destination(
                            from: position[device], azimuth: heading[device], distance: speed[device])
                    }
                    let untimed = device % 101 == 7
                    let stale = second > 0 && (device * 31 + second) % 97 == 0
                    var time = Timestamp(seconds: 1_777_636_800 + Int64(stale ? second - 1 : second))
                    if (device + second) % 7 == 0 { time.nanoseconds = 250_000_000 }
                    let accuracy = (device + second) % 50 == 0 ? 2000.0 : 5.0
                    let lat = position[device].latitude
                    let lon = position[device].longitude
                    if isCSV {
                        let quoted = "\"" + name(device).replacingOccurrences(of: "\"", with: "\"\"") + "\""
                        text += "\(quoted),\(lat),\(lon),\(untimed ? "" : time.rfc3339),\(accuracy)\n"
                    } else {
                        text += "{\"device\":\(JSONWriter.quoted(name(device))),\"lat\":\(lat),\"lon\":\(lon)"
                        if !untimed { text += ",\"time\":\"\(time.rfc3339)\"" }
                        text += ",\"acc\":\(accuracy)}\n"
                    }
                }
            }
            let file = directory.appendingPathComponent("fixes-\(file)." + (isCSV ? "csv" : "ndjson"))
            try text.write(to: file, atomically: true, encoding: .utf8)
        }
        return directory
    }

    /// A folder with bad records in the middle of an NDJSON file (lines 4 and 6) and a CSV file (line 3).
    static func writeWithBadRecords(into directory: URL) throws -> [URL] {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var lines: [String] = []
        for step in 0..<10 {
            let point = Geodesic.wgs84.destination(from: favourites[0], azimuth: 90, distance: 12_000 - Double(step) * 1_500)
            lines.append(
                "{\"device\":\"d\(step % 2)\",\"lat\":\(point.latitude),\"lon\":\(point.longitude),\"time\":\"2026-05-01T12:00:\(String(format: "%02d", step))Z\"}"
            )
        }
        lines[3] = "{\"device\":\"d1\",\"lat\":\"north\",\"lon\":1}"
        lines[5] = "{\"device\":\"d1\",\"lat\":95,\"lon\":1"
        let ndjson = directory.appendingPathComponent("middle.ndjson")
        try (lines.joined(separator: "\n") + "\n").write(to: ndjson, atomically: true, encoding: .utf8)
        let near = Geodesic.wgs84.destination(from: favourites[2], azimuth: 10, distance: 500)
        let csv = directory.appendingPathComponent("middle.csv")
        try
            "time,lat,lon,device\n2026-05-01T13:00:00Z,48.9,-113.5,c1\n2026-05-01T13:00:01Z,91.5,-113.5,c1\n2026-05-01T13:00:02Z,\(near.latitude),\(near.longitude),c1\n"
            .write(to: csv, atomically: true, encoding: .utf8)
        return [ndjson, csv]
    }

    /// The files an input names, as spark-watch reads them: a file, or a folder's files sorted.
    static func files(of path: String) throws -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else { return [path] }
        let names = try FileManager.default.subpathsOfDirectory(atPath: path)
        return names.filter { !$0.hasPrefix(".") && !$0.hasPrefix("_") }
            .map { (path as NSString).appendingPathComponent($0) }
            .filter {
                var d: ObjCBool = false; return FileManager.default.fileExists(atPath: $0, isDirectory: &d) && !d.boolValue
            }
            .sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
    }
}
