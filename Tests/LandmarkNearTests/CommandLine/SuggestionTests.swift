import Testing

/// Mistyped commands and options get a suggestion; `help COMMAND` shows that command's help.
@Suite(.suiteTimeLimit)
struct SuggestionTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var arguments: [String]
        var suggestion: String?
        var testDescription: String { arguments.joined(separator: " ") }
    }

    @Test(arguments: [
        Case(arguments: ["wacth"], suggestion: "watch"),
        Case(arguments: ["nearst", "34", "-116"], suggestion: "nearest"),
        Case(arguments: ["watch", "--radious", "3mi"], suggestion: "--radius"),
        Case(arguments: ["watch", "--favourites", "all"], suggestion: "--favorites"),
        Case(arguments: ["nearest", "34", "-116", "--jsno"], suggestion: "--json"),
        Case(arguments: ["nearest", "-x"], suggestion: nil),
        Case(arguments: ["frobnicate"], suggestion: nil),
    ])
    func usageErrorsSuggestTheClosestName(_ testCase: Case) async throws {
        let result = try await runTool(testCase.arguments, stdin: "")
        #expect(result.status == 64)
        #expect(result.stderr.split(separator: "\n").count == 1, "one line: \(result.stderr)")
        if let suggestion = testCase.suggestion {
            #expect(result.stderr.contains("did you mean '\(suggestion)'?"), "\(result.stderr)")
        } else {
            #expect(!result.stderr.contains("did you mean"), "\(result.stderr)")
        }
    }

    @Test(arguments: ["watch", "nearest", "parse"])
    func helpCommandShowsThatCommandsHelp(_ command: String) async throws {
        let viaHelp = try await runTool(["help", command])
        let viaFlag = try await runTool([command, "--help"])
        #expect(viaHelp.status == 0)
        #expect(viaHelp.stdout == viaFlag.stdout)
        #expect(viaHelp.stdout.hasPrefix("Usage: landmark-near \(command)"))
    }
}
