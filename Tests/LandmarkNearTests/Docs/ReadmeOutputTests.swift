import Foundation
import Testing

/// The outputs the README shows are the tool's real ones: the quick start's first event line
/// and its summary, and every `$ landmark-near ...` transcript in a ```text block (the command
/// run with the words as written, stdout then stderr compared line for line).
@Suite(.suiteTimeLimit) struct ReadmeOutputTests {
    static let readme = (try? String(contentsOf: repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)) ?? ""
    static var readmeLines: [Substring] { readme.split(separator: "\n", omittingEmptySubsequences: false) }

    struct Transcript: Sendable, CustomTestStringConvertible {
        var command: [String]
        var output: [String]
        var testDescription: String { "$ " + command.joined(separator: " ") }
    }

    /// `$ landmark-near ...` lines of ```text blocks, each with the lines up to the next `$`.
    static var transcripts: [Transcript] {
        var found: [Transcript] = []
        var inText = false
        for line in readmeLines {
            if line.hasPrefix("```") {
                inText = line == "```text"
                continue
            }
            guard inText else { continue }
            if line.hasPrefix("$ landmark-near ") {
                found.append(Transcript(command: line.dropFirst(16).split(separator: " ").map(String.init), output: []))
            } else if !found.isEmpty, !line.hasPrefix("$ ") {
                found[found.count - 1].output.append(String(line))
            }
        }
        return found
    }

    @Test func theQuickStartsOutputIsShownAsItIs() async throws {
        let result = try await runTool(["watch", repositoryRoot.appendingPathComponent("Samples/road-trip.nmea").path])
        #expect(result.status == 0)
        let first = try #require(result.stdout.split(separator: "\n").first)
        let summary = try #require(result.stderr.split(separator: "\n").last)
        #expect(Self.readmeLines.contains(first), "README lacks the real event line: \(first)")
        #expect(Self.readmeLines.contains(summary), "README lacks the real summary: \(summary)")
    }

    @Test func theReadmeHasTranscripts() {
        #expect(Self.transcripts.count >= 3)
    }

    @Test(arguments: transcripts)
    func transcriptIsTheRealOutput(_ transcript: Transcript) async throws {
        let result = try await runTool(transcript.command, stdin: "")
        let actual = (result.stdout + result.stderr).split(separator: "\n").map(String.init)
        #expect(actual == transcript.output)
    }
}
