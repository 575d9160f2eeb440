import Foundation
import Testing

@testable import LandmarkNear

/// The same input gets the same exit status from every command: statuses come from one
/// mapping of error kinds (usage 64, bad data 65, cannot open input 66, I/O 74).
@Suite(.suiteTimeLimit) struct ExitStatusTests {
    /// Every place a command takes a file, given a directory: it cannot be opened as an input (66).
    static func directoryCases(_ directory: String) -> [[String]] {
        [
            ["watch", directory], ["watch", "--landmarks", directory], ["watch", "--profiles", directory],
            ["parse", directory], ["parse", "--ndjson", directory], ["parse", "--strings", directory],
            ["validate", directory], ["nearest", "1", "2", "--landmarks", directory],
            ["landmarks", "--landmarks", directory], ["payload", "--id", "1002", "--landmarks", directory],
        ]
    }

    @Test func aDirectoryAsInputIsNoInputEverywhere() async throws {
        let directory = try makeTemporaryDirectory("exit-status")
        defer { try? FileManager.default.removeItem(at: directory) }
        for arguments in Self.directoryCases(directory.path) {
            let result = try await runTool(arguments, stdin: "")
            #expect(result.status == 66, "\(arguments.joined(separator: " ")): \(result.stderr)")
            #expect(result.stderr.contains("\(directory.path): is a directory"), "\(arguments.joined(separator: " ")): \(result.stderr)")
        }
    }

    @Test func aMissingFileIsNoInputEverywhere() async throws {
        let missing = "/nonexistent/input"
        for arguments in Self.directoryCases(missing) {
            let result = try await runTool(arguments, stdin: "")
            #expect(result.status == 66, "\(arguments.joined(separator: " ")): \(result.stderr)")
            #expect(result.stderr.contains("\(missing): no such file"), "\(arguments.joined(separator: " ")): \(result.stderr)")
        }
    }

}
