import Foundation
import Testing

/// `Scripts/fuzz.py` keeps working (CI runs it for minutes under AddressSanitizer): a short run
/// over the built tool finds nothing, and a tool that crashes is reported with a shrunk,
/// reproducible input.
@Suite(.suiteTimeLimit) struct FuzzHarnessTests {
    static let script = repositoryRoot.appendingPathComponent("Scripts/fuzz.py").path

    @Test func aShortRunOverEveryTargetFindsNothing() async throws {
        let out = try makeTemporaryDirectory("fuzz")
        defer { try? FileManager.default.removeItem(at: out) }
        let result = try await runProcess(
            "/usr/bin/python3",
            [Self.script, "--binary", try toolExecutableURL().path, "--seed", "tests", "--iterations", "60", "--out", out.path],
            timeout: 300)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("seed 'tests', 60 iterations in "), "\(result.stdout)")
        #expect(result.stdout.contains("0 findings"), "\(result.stdout)")
    }

    @Test func aCrashIsShrunkToAReproducer() async throws {
        let directory = try makeTemporaryDirectory("fuzz-crash")
        defer { try? FileManager.default.removeItem(at: directory) }
        // A "tool" that dies of SIGSEGV on any catalog holding a comma.
        let fake = directory.appendingPathComponent("fake-tool")
        try Data("#!/bin/sh\nfor a; do [ -f \"$a\" ] && grep -q , \"$a\" && kill -SEGV $$; done\nexit 0\n".utf8).write(to: fake)
        _ = chmod(fake.path, 0o755)
        let out = directory.appendingPathComponent("out")
        let arguments = [Self.script, "--binary", fake.path, "--targets", "catalog", "--seed", "1", "--iterations", "5", "--out", out.path]
        let result = try await runProcess("/usr/bin/python3", arguments, timeout: 300)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("catalog: signal SIGSEGV"), "\(result.stdout)")
        let files = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
        let input = try #require(files.first { $0.hasPrefix("catalog-signal-sigsegv-") && $0.hasSuffix(".input") }, "\(files)")
        #expect(try Data(contentsOf: out.appendingPathComponent(input)) == Data(",".utf8))
        let command = try String(
            contentsOf: out.appendingPathComponent(input.replacingOccurrences(of: ".input", with: ".sh")), encoding: .utf8)
        #expect(command.contains("landmarks --json --landmarks"), "\(command)")
        // The same seed, the same run (but for the time it took).
        let again = try await runProcess("/usr/bin/python3", arguments, timeout: 300)
        let timeless = { (text: String) in text.replacing(/\sin \d+ s/, with: "") }
        #expect(timeless(again.stdout) == timeless(result.stdout))
    }
}
