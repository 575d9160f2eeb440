import Foundation
import Testing

/// What a new user installs: the version line, the man page and completions that must match
/// the `--help` texts, and `Scripts/install.sh` laying them out under a prefix.
@Suite(.suiteTimeLimit)
struct InstallTests {
    @Test(arguments: ["--version", "-V"])
    func versionNamesTheToolAndItsLibraries(_ flag: String) async throws {
        let result = try await runTool([flag])
        #expect(result.status == 0)
        let line = result.stdout.trimmingCharacters(in: .newlines)
        #expect(
            line.range(
                of: #"^landmark-near \d+\.\d+\.\d+ \(GEOS \d+\.\d+[^,]*, PROJ \d+\.\d+[^,]*, libxml2 \d+\.\d+\.\d+\)$"#,
                options: .regularExpression) != nil, "\(line)")
    }

    @Test func manPageAndCompletionsMatchTheHelpTexts() async throws {
        let result = try await runProcess(
            "/usr/bin/python3",
            [
                repositoryRoot.appendingPathComponent("Scripts/make-docs.py").path,
                "--binary", try toolExecutableURL().path, "--check",
            ])
        #expect(result.status == 0, "\(result.stderr)")
    }

    @Test func installScriptLaysOutBinaryManPageAndCompletions() async throws {
        let prefix = try makeTemporaryDirectory("install")
        defer { try? FileManager.default.removeItem(at: prefix) }
        let result = try await runProcess(
            "/bin/bash", [repositoryRoot.appendingPathComponent("Scripts/install.sh").path],
            environment: ["PREFIX": prefix.path, "BINARY": try toolExecutableURL().path])
        #expect(result.status == 0, "\(result.stderr)")
        for relative in [
            "bin/landmark-near", "share/man/man1/landmark-near.1",
            "share/bash-completion/completions/landmark-near",
            "share/zsh/site-functions/_landmark-near",
            "share/fish/vendor_completions.d/landmark-near.fish",
        ] {
            #expect(FileManager.default.fileExists(atPath: prefix.appendingPathComponent(relative).path), "\(relative)")
        }
        let installed = try await runProcess(prefix.appendingPathComponent("bin/landmark-near").path, ["--version"])
        #expect(installed.status == 0)
        let completion = try await runProcess(
            "/bin/bash",
            [
                "-c",
                """
                source '\(prefix.path)/share/bash-completion/completions/landmark-near'
                COMP_WORDS=(landmark-near watch --ra); COMP_CWORD=2; _landmark_near; printf '%s\\n' "${COMPREPLY[@]}"
                """,
            ])
        #expect(completion.stdout.contains("--radius"), "\(completion.stdout) \(completion.stderr)")
    }
}
