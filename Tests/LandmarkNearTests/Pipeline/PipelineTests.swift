import Foundation
import Testing

@_spi(Inlining) @testable import LandmarkNearCore
@testable import LandmarkNearEngine
@testable import LandmarkNearOutputs
@testable import LandmarkNearReaders
@testable import LandmarkNearSessions

/// The pipeline in process, driven by a source of the tests' own: what it prints, when it
/// commits and acknowledges, and the stage machine that keeps its calls in order.
@Suite(.suiteTimeLimit) struct PipelineTests {
    /// Records handed out in batches, each ended by `.batchEnd`; what the pipeline had
    /// committed to the store whenever it said a batch was committed.
    struct BatchSource: FixSource {
        var batches: [[FixRecord]]
        var batch = 0
        var record = 0
        var ended = false
        let store: StateStore?
        /// Per `committed` call: the notifications the store held as not done (decided).
        var decidedAtCommit: [Int] = []
        let sourceName = "test"
        var isLive: Bool { true }
        var format: FixFormat? { .ndjson }

        mutating func next(_ pipeline: PipelineStatus) -> SourceStep {
            guard batch < batches.count else { return .end(nil) }
            if record < batches[batch].count {
                record += 1
                return .record(batches[batch][record - 1])
            }
            batch += 1
            record = 0
            return .batchEnd
        }

        mutating func committed(_ statistics: WatchStatistics) {
            decidedAtCommit.append((try? store?.undoneNotifications().count) ?? -1)
        }
    }

    static func fix(_ device: String, _ latitude: Double, _ longitude: Double, _ second: Int64, line: Int) -> FixRecord {
        .fix(
            Fix(
                device: device, coordinate: Coordinate(latitude: latitude, longitude: longitude),
                time: Timestamp(seconds: 1_777_636_800 + second)),
            line: line)
    }

    /// A drive past Turtle Rock (a favourite) and on, in two batches.
    static let drive: [[FixRecord]] = [
        [fix("car", 34.30, -116.20, 0, line: 1), fix("car", 34.05, -116.15, 60, line: 2)],
        [fix("car", 34.02, -116.16, 120, line: 3), fix("car", 34.60, -116.20, 600, line: 4)],
    ]

    /// An output writer into a file of the test's, read back afterwards.
    static func capture(_ body: (OutputWriter) throws -> Void) throws -> [String] {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("out").path
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        #expect(descriptor >= 0)
        defer { close(descriptor) }
        let output = OutputWriter(descriptor: descriptor)
        try body(output)
        try output.flush()
        return try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    @Test func aSourceDrainedThroughThePipelinePrintsWhatWatchPrints() throws {
        let lines = try Self.capture { output in
            let pipeline = try Pipeline(
                catalog: .embedded, options: WatchOptions(), output: output, diagnostics: OutputWriter(descriptor: 2))
            var source = BatchSource(batches: Self.drive, store: nil)
            try pipeline.resume()
            try pipeline.drain(&source)
            try pipeline.finish()
            #expect(pipeline.statistics.used == 4)
            #expect(pipeline.statistics.notifications == 1)
            #expect(source.decidedAtCommit.count == 2)
        }
        #expect(lines.count == 1)
        #expect(lines.first?.hasPrefix(#"{"event":"enter","device":"car","time":"2026-05-01T12:01:00Z","#) == true)
        #expect(lines.first?.contains(#""landmark":{"index":0,"id":1001,"name":"Turtle Rock"}"#) == true)
    }

    /// The acknowledgement point of a source (what `serve` answers, what a broker is acked on)
    /// comes after the batch's notifications are in the state as decided.
    @Test func aBatchIsCommittedToTheStateBeforeItsSourceIsTold() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try StateStore(path: directory.appendingPathComponent("state.db").path)
        var source = BatchSource(batches: Self.drive, store: store)
        _ = try Self.capture { output in
            let pipeline = try Pipeline(
                catalog: .embedded, options: WatchOptions(), output: output, diagnostics: OutputWriter(descriptor: 2),
                store: store)
            try pipeline.resume()
            try pipeline.drain(&source)
            try pipeline.finish()
        }
        // The first batch notified: when its source heard of the commit, the notification was
        // recorded as decided (and printed), its done mark still to come with the next commit.
        #expect(source.decidedAtCommit == [1, 0])
        #expect(try store.undoneNotifications().isEmpty)
    }

    @Test func theSameRecordsGiveTheSameLinesWhateverTheBatches() throws {
        let all = Self.drive.flatMap { $0 }
        var outputs: [[String]] = []
        for split in 0...all.count {
            outputs.append(
                try Self.capture { output in
                    let pipeline = try Pipeline(
                        catalog: .embedded, options: WatchOptions(), output: output, diagnostics: OutputWriter(descriptor: 2))
                    var source = BatchSource(batches: [Array(all[..<split]), Array(all[split...])], store: nil)
                    try pipeline.resume()
                    try pipeline.drain(&source)
                    try pipeline.finish()
                })
        }
        #expect(Set(outputs.map { $0.joined(separator: "\n") }).count == 1)
    }

    /// `watch` in process: the pipeline's own run over the quick start's trace prints what the
    /// built tool prints.
    @Test func theQuickStartInProcessEqualsTheTool() async throws {
        let sample = repositoryRoot.appendingPathComponent("Samples/road-trip.nmea").path
        let lines = try Self.capture { output in
            let pipeline = try Pipeline(
                catalog: .embedded, options: WatchOptions(), output: output, diagnostics: OutputWriter(descriptor: 2))
            let statistics = try pipeline.run(inputs: [.file(sample)])
            #expect(statistics.notifications == 2)
        }
        let tool = try await runTool(["watch", sample])
        #expect(lines == tool.stdout.split(separator: "\n").map(String.init))
    }

    @Test func recordsBeforeResumeStopTheProcess() async {
        await #expect(processExitsWith: .failure) {
            let pipeline = try Pipeline(
                catalog: .embedded, options: WatchOptions(), output: OutputWriter(descriptor: 1),
                diagnostics: OutputWriter(descriptor: 2))
            try pipeline.process(PipelineTests.drive[0][0], source: "test", isLive: false)
        }
    }

    @Test func nothingComesAfterFinish() async {
        await #expect(processExitsWith: .failure) {
            let pipeline = try Pipeline(
                catalog: .embedded, options: WatchOptions(), output: OutputWriter(descriptor: 1),
                diagnostics: OutputWriter(descriptor: 2))
            try pipeline.resume()
            try pipeline.finish()
            try pipeline.resume()
        }
    }

    @Test(arguments: [
        (PipelineStage.created, PipelineStage.running, true), (.running, .finished, true), (.running, .failed, true),
        (.created, .failed, true), (.created, .finished, false), (.finished, .running, false), (.failed, .running, false),
    ])
    func stageTransitions(_ from: PipelineStage, _ to: PipelineStage, _ allowed: Bool) {
        #expect(PipelineStage.allowed(from: from, to: to) == allowed)
    }
}
