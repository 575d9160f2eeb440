import Foundation
import Testing

@_spi(Inlining) @testable import LandmarkNearCore
@testable import LandmarkNearOutputs

/// docs/reference/state.md, resume: a trace split at a record boundary and run as two processes with one
/// `--state` file (the first stopped by the end of its input, SIGINT or SIGTERM) prints,
/// over both runs, exactly one run's notifications, and writes the same `.apns` files.
@Suite(.serialized, .suiteTimeLimit)
struct StateResumeTests {
    enum Stop: String, Sendable, CaseIterable { case endOfInput, sigint, sigterm }

    struct SplitCase: Sendable, CustomTestStringConvertible {
        var at: Int
        var stop: Stop
        /// The second run reads a regular file rather than a pipe.
        var secondFromFile: Bool
        var testDescription: String { "split at \(at), \(stop.rawValue)\(secondFromFile ? ", then a file" : "")" }
    }

    static let trace = ServiceTrace.lines(fixes: 96)

    static let cases: [SplitCase] = [0, 1, 17, 47, 48, 66, 95, 96].enumerated().map { offset, at in
        SplitCase(at: at, stop: Stop.allCases[offset % 3], secondFromFile: offset % 4 == 1)
    }

    /// One run over the whole trace, as the reference (made once for all cases).
    static let reference = Task<(stdout: [String], files: [String: Data]), any Error> {
        let directory = try makeTemporaryDirectory("resume-reference")
        defer { try? FileManager.default.removeItem(at: directory) }
        let apns = directory.appendingPathComponent("apns")
        let result = try await runTool(
            ["watch"] + ServiceTrace.options
                + ["--state", directory.appendingPathComponent("s.db").path, "--apns-dir", apns.path],
            stdin: trace.joined())
        guard result.status == 0 else { throw ReferenceRunFailed(stderr: result.stderr) }
        return (ServiceTrace.lines(of: result.stdout), ServiceTrace.files(in: apns))
    }

    struct ReferenceRunFailed: Error { var stderr: String }

    @Test(arguments: cases)
    func twoRunsPrintAndWriteWhatOneRunDoes(_ split: SplitCase) async throws {
        let directory = try makeTemporaryDirectory("resume")
        defer { try? FileManager.default.removeItem(at: directory) }
        let reference = try await Self.reference.value
        #expect(reference.stdout.count > 30)

        let state = directory.appendingPathComponent("state.db").path
        let apns = directory.appendingPathComponent("apns")
        let arguments = ["watch"] + ServiceTrace.options + ["--state", state, "--apns-dir", apns.path]
        let first = Self.trace[..<split.at].joined()
        let second = Self.trace[split.at...].joined()

        var printed: [String] = []
        switch split.stop {
        case .endOfInput:
            let result = try await runTool(arguments, stdin: first)
            #expect(result.status == 0, "\(result.stderr)")
            printed += ServiceTrace.lines(of: result.stdout)
        case .sigint, .sigterm:
            let tool = try LiveTool(arguments)
            tool.write(first)
            tool.waitUntilInputDrained()
            tool.signal(split.stop == .sigint ? SIGINT : SIGTERM)
            let status = tool.wait()
            #expect(status == (split.stop == .sigint ? 130 : 143), "\(tool.stderr)")
            #expect(tool.stderr.contains("interrupted by \(split.stop == .sigint ? "SIGINT" : "SIGTERM")"), "\(tool.stderr)")
            printed += ServiceTrace.lines(of: tool.stdout)
        }

        let result: ToolResult
        if split.secondFromFile {
            let file = directory.appendingPathComponent("second.ndjson")
            try Data(second.utf8).write(to: file)
            result = try await runTool(arguments + [file.path])
        } else {
            result = try await runTool(arguments, stdin: second)
        }
        #expect(result.status == 0, "\(result.stderr)")
        printed += ServiceTrace.lines(of: result.stdout)

        #expect(printed == reference.stdout)
        #expect(ServiceTrace.files(in: apns) == reference.files)
    }

    /// Landmarks that left the catalog are forgotten; options apply from the run that gives them.
    @Test func landmarksThatLeftTheCatalogAreForgotten() async throws {
        let directory = try makeTemporaryDirectory("forget")
        defer { try? FileManager.default.removeItem(at: directory) }
        let state = directory.appendingPathComponent("state.db").path
        let rock = LandmarkCatalog.embedded[0].coordinate
        let catalog = { (ids: [Int]) -> String in
            "["
                + ids.map { id in
                    "{\"id\":\(id),\"name\":\"L\(id)\",\"coordinates\":{\"latitude\":\(rock.latitude),\"longitude\":\(rock.longitude + Double(id - 1) * 0.01)},\"isFavorite\":true}"
                }.joined(separator: ",") + "]"
        }
        let both = directory.appendingPathComponent("both.json")
        let one = directory.appendingPathComponent("one.json")
        try Data(catalog([1, 2]).utf8).write(to: both)
        try Data(catalog([1]).utf8).write(to: one)
        let near = "{\"device\":\"d\",\"lat\":\(rock.latitude),\"lon\":\(rock.longitude),\"time\":\"2026-05-01T12:00:00Z\"}\n"
        let first = try await runTool(["watch", "--landmarks", both.path, "--state", state], stdin: near)
        #expect(ServiceTrace.lines(of: first.stdout).count == 2)

        do {  // the store (and its lock) is released before the next run
            let store = try StateStore(path: state)
            #expect(try store.loadDevices().first?.favorites.map(\.landmarkID).sorted() == [1, 2])
        }
        let later = "{\"device\":\"d\",\"lat\":\(rock.latitude),\"lon\":\(rock.longitude),\"time\":\"2026-05-01T12:05:00Z\"}\n"
        let second = try await runTool(["watch", "--landmarks", one.path, "--state", state], stdin: later)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout.isEmpty, "still inside 1: no new notification")
        #expect(try StateStore(path: state).loadDevices().first?.favorites.map(\.landmarkID) == [1])
    }
}
