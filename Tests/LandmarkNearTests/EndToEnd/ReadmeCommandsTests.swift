import Foundation
import Testing

/// Every command the README shows runs as written: the fenced blocks tagged `sh` are run with
/// bash (`-e -o pipefail`) in a scratch copy of `examples/`, `Samples/` and `Payloads/`, with
/// the built `landmark-near` first on PATH. Blocks tagged `sh setup` (set-up, build and install
/// commands that CI runs anyway) or `sh live` (they need gpsd, a phone or APNs) are not run
/// here; the suites of those features cover them.
@Suite(.suiteTimeLimit)
struct ReadmeCommandsTests {
    struct Block: Sendable, CustomTestStringConvertible {
        var line: Int
        var script: String
        var testDescription: String { "README.md:\(line): \(script.split(separator: "\n").first ?? "")" }
    }

    /// The runnable blocks of a Markdown text, with the line of their opening fence.
    static func runnableBlocks(of markdown: String) -> [Block] {
        var blocks: [Block] = []
        var open: (info: [Substring], line: Int, lines: [String])?
        for (index, line) in markdown.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if var block = open {
                if line.hasPrefix("```") {
                    if block.info == ["sh"] { blocks.append(Block(line: block.line, script: block.lines.joined(separator: "\n"))) }
                    open = nil
                } else {
                    block.lines.append(String(line))
                    open = block
                }
            } else if line.hasPrefix("```") {
                open = (line.dropFirst(3).split(separator: " "), index + 1, [])
            }
        }
        return blocks
    }

    /// Read once; an unreadable README gives no blocks, which `theReadmeHasRunnableBlocks` fails.
    static let readme = (try? String(contentsOf: repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)) ?? ""
    static let blocks = runnableBlocks(of: readme)

    @Test func theReadmeHasRunnableBlocks() {
        #expect(Self.blocks.count >= 5, "README.md lost its runnable examples")
    }

    @Test(arguments: blocks)
    func blockRunsAsWritten(_ block: Block) async throws {
        let scratch = try makeTemporaryDirectory("readme")
        defer { try? FileManager.default.removeItem(at: scratch) }
        for folder in ["examples", "Samples", "Payloads"] {
            try FileManager.default.copyItem(
                at: repositoryRoot.appendingPathComponent(folder),
                to: scratch.appendingPathComponent(folder))
        }
        let toolDirectory = try toolExecutableURL().deletingLastPathComponent().path
        let path = toolDirectory + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let result = try await runProcess(
            "/bin/bash", ["-e", "-o", "pipefail", "-c", block.script],
            environment: ["PATH": path], currentDirectory: scratch, timeout: 120)
        #expect(
            result.status == 0, "\(block.testDescription)\nstdout: \(result.stdout.prefix(2000))\nstderr: \(result.stderr.prefix(2000))")
    }
}
