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

    /// Installing asks only for the libraries the binary loads (and, when it builds, their
    /// headers): never for the tests' chromium, Java, gpsd or broker. A `dpkg-query` first on
    /// PATH records what install.sh asks about (and says each is installed, so nothing is).
    @Test func installScriptAsksOnlyForTheRuntimePackages() async throws {
        let directory = try makeTemporaryDirectory("install-packages")
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = directory.appendingPathComponent("asked")
        let fake = directory.appendingPathComponent("dpkg-query")
        let script = "#!/bin/sh\nfor a; do last=$a; done\necho \"$last\" >> '\(log.path)'\nprintf 'install ok installed'\n"
        try Data(script.utf8).write(to: fake)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: fake.path)
        let result = try await runProcess(
            "/bin/bash", [repositoryRoot.appendingPathComponent("Scripts/install.sh").path],
            environment: [
                "PREFIX": directory.appendingPathComponent("prefix").path, "BINARY": try toolExecutableURL().path,
                "PATH": directory.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
            ])
        #expect(result.status == 0, "\(result.stderr)")
        let asked = Set(try String(contentsOf: log, encoding: .utf8).split(separator: "\n").map(String.init))
        #expect(asked == Self.packages(in: "Scripts/debian-runtime-packages.txt"))
        #expect(asked.isDisjoint(with: Self.packages(in: "Scripts/debian-packages.txt")))
    }

    static func packages(in list: String) -> Set<String> {
        let text = (try? String(contentsOf: repositoryRoot.appendingPathComponent(list), encoding: .utf8)) ?? ""
        return Set(text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && !$0.hasPrefix("#") })
    }
}
