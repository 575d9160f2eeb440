import Foundation
import Testing

/// What a new user meets at the edges (issue 42; docs/reference/exit-statuses.md): outputs that
/// cannot be written are found before the first fix, a forced format that reads nothing is an
/// error, and a reader of stdout that goes away ends every command quietly with 0.
@Suite(.suiteTimeLimit) struct NewUserEdgesTests {
    static let turtleRock = #"{"device":"a","lat":34.01,"lon":-116.16}"# + "\n"

    struct Unwritable: CustomTestStringConvertible, Sendable {
        var name: String
        var arguments: [String]
        var says: String
        var testDescription: String { name }
    }

    static let unwritable: [Unwritable] = [
        Unwritable(
            name: "watch --geojson into a missing directory", arguments: ["watch", "--geojson", "/nonexistent-dir/x.geojson"],
            says: "landmark-near watch: --geojson /nonexistent-dir/x.geojson: the directory /nonexistent-dir does not exist"),
        Unwritable(
            name: "map --out into a missing directory", arguments: ["map", "--out", "/nonexistent-dir/run.html"],
            says: "landmark-near map: --out /nonexistent-dir/run.html: the directory /nonexistent-dir does not exist"),
        Unwritable(
            name: "map --out a directory", arguments: ["map", "--out", "/tmp"], says: "landmark-near map: --out /tmp: is a directory"),
    ]

    /// 74 in our words, and nothing processed: the enter the fix would give is not printed.
    @Test(arguments: unwritable) func anOutputThatCannotBeWrittenStopsBeforeTheFirstFix(_ unwritable: Unwritable) async throws {
        let result = try await runTool(unwritable.arguments + ["--format", "ndjson", "-"], stdin: Self.turtleRock)
        #expect(result.status == 74, "\(result.stderr)")
        #expect(result.stderr.contains(unwritable.says), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(!result.stderr.contains("fixes read") && !result.stderr.contains("could not be completed"))
    }

    /// `--format nmea` on NDJSON: the user said what the input is, and it held none of it: 65.
    @Test func aForcedFormatThatReadsNothingIsAnError() async throws {
        let result = try await runTool(["watch", "--format", "nmea"], stdin: Self.turtleRock)
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.contains("<stdin>: --format nmea read no fix: no NMEA sentence had a fix"), "\(result.stderr)")
        // Detected, the same input is fine.
        let detected = try await runTool(["watch"], stdin: Self.turtleRock)
        #expect(detected.status == 0, "\(detected.stderr)")
    }

    /// `| head -1` ends `nearest` (reading stdin, or answering one position) and `watch` alike:
    /// exit 0, nothing on stderr about a broken pipe.
    @Test(arguments: [
        "yes 34,-116 | head -200000 | \"$TOOL\" nearest | head -1 >/dev/null; echo \"status ${PIPESTATUS[2]}\"",
        "yes '{\"device\":\"a\",\"lat\":34.01,\"lon\":-116.16}' | head -200000 | \"$TOOL\" watch --events all | head -1 >/dev/null; echo \"status ${PIPESTATUS[2]}\"",
    ])
    func aReaderThatGoesAwayEndsTheCommandQuietly(_ pipeline: String) async throws {
        let result = try await runProcess(
            "/bin/bash", ["-c", pipeline], environment: ["TOOL": try toolExecutableURL().path], timeout: 60)
        #expect(result.stdout.contains("status 0"), "\(result.stdout) \(result.stderr)")
        #expect(!result.stderr.contains("Broken pipe"), "\(result.stderr)")
    }

    /// A catalog with no favourite warns at start; --explain says far distances in kilometres.
    @Test func noFavouriteWarnsAndFarDistancesReadInKilometres() async throws {
        let directory = try makeTemporaryDirectory("edges")
        let catalog = directory.appendingPathComponent("none.csv").path
        try "id,name,lat,lon\n1,Plain,1,2\n".write(toFile: catalog, atomically: true, encoding: .utf8)
        let none = try await runTool(["watch", "--landmarks", catalog], stdin: Self.turtleRock)
        #expect(none.status == 0)
        #expect(none.stderr.contains("landmark-near watch: warning: no favourite landmarks: nothing can notify"), "\(none.stderr)")
        let far = try await runTool(["watch", "--explain", "--favorites", "1002"], stdin: Self.turtleRock)
        #expect(
            far.stderr.contains(#"nearest favourite "Silver Salmon Creek" is "#) && far.stderr.contains(" km away (radius"), "\(far.stderr)"
        )
        #expect(!far.stderr.contains("no favourite landmarks"))
        let near = try await runTool(["watch", "--explain", "--favorites", "1001", "--radius", "100m"], stdin: Self.turtleRock)
        #expect(near.stderr.contains(#"nearest favourite "Turtle Rock" is 650.259 m away"#), "\(near.stderr)")
    }

    /// Positions as people write them: hemisphere letters (either order), semicolons, `-k3`.
    @Test(arguments: [
        ["nearest", "34.0N", "116.0W", "--json"], ["nearest", "116W", "34N", "--json"], ["nearest", "34;-116", "--json"],
        ["nearest", "34°N, 116°W", "--json"], ["nearest", "-k1", "34", "-116", "--json"], ["nearest", "-k=1", "34,-116", "--json"],
    ])
    func positionsAsPeopleWriteThem(_ arguments: [String]) async throws {
        let result = try await runTool(arguments)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix(#"{"lat":34,"lon":-116,"nearest":[{"index":0,"id":1001,"#), "\(result.stdout)")
    }

    @Test func aSignBesideAHemisphereLetterIsRefused() async throws {
        let result = try await runTool(["nearest", "--", "-34S", "116W"])
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains("a sign and a hemisphere letter together"), "\(result.stderr)")
    }

    /// `hash-password alice` is a usage error; on a terminal it asks twice without echo.
    @Test func hashPasswordTakesNoNameAndAsksWithoutEcho() async throws {
        let named = try await runTool(["hash-password", "alice"], stdin: "s3cret")
        #expect(named.status == 64, "\(named.stderr)")
        #expect(named.stdout.isEmpty)
        // A pseudo-terminal, as a person at a shell: the prompts show, the password does not.
        let script = """
            import os, pty, sys, time
            pid, fd = pty.fork()
            if pid == 0:
                os.execv(sys.argv[1], ["landmark-near", "hash-password"])
            seen = b""
            def read():
                global seen
                time.sleep(1.0)
                try: seen += os.read(fd, 4096)
                except OSError: pass
            read(); os.write(fd, b"s3cret\\n"); read(); os.write(fd, b"s3cret\\n"); read()
            _, status = os.waitpid(pid, 0)
            sys.stdout.write(repr(seen) + " status " + str(os.WEXITSTATUS(status)))
            """
        let result = try await runProcess("/usr/bin/python3", ["-c", script, try toolExecutableURL().path], timeout: 30)
        #expect(result.stdout.contains("Password:") && result.stdout.contains("Again:"), "\(result.stdout)")
        #expect(result.stdout.contains("$y$") && result.stdout.contains("status 0"), "\(result.stdout)")
        #expect(!result.stdout.contains("s3cret"), "the password was echoed: \(result.stdout)")
    }

    /// `--state` in a missing directory names the state file and the directory, not the lock file.
    @Test func aStateFileInAMissingDirectoryIsNamedAsGiven() async throws {
        let result = try await runTool(["watch", "--state", "/nonexistent-dir/s.db"], stdin: "")
        #expect(result.status == 74, "\(result.stderr)")
        #expect(
            result.stderr.contains("landmark-near watch: --state /nonexistent-dir/s.db: the directory /nonexistent-dir does not exist"),
            "\(result.stderr)")
        #expect(!result.stderr.contains("-lock"))
    }

    @Test func theVersionNamesLibxml2AsPeopleWriteIt() async throws {
        let result = try await runTool(["--version"])
        #expect(result.status == 0)
        #expect(result.stdout.range(of: #"libxml2 \d+\.\d+\.\d+\)"#, options: .regularExpression) != nil, "\(result.stdout)")
    }

    /// `fixes` on a live pipe: each fix out while the input waits, and SIGINT stops it with
    /// what was read printed, the summary written and 130 (as `watch` does).
    @Test func fixesFlushesALiveStreamAndStopsOnSIGINT() async throws {
        let tool = try LiveTool(["fixes"])
        tool.write(Self.turtleRock)
        #expect(tool.waitForStdoutLines(1, timeout: 10), "the first fix was held back: \(tool.stdout)")
        tool.write(#"{"device":"a","lat":34.02,"lon":-116.16}"# + "\n")
        #expect(tool.waitForStdoutLines(2, timeout: 10), "\(tool.stdout)")
        tool.signal(SIGINT)
        #expect(tool.wait() == 130)
        #expect(
            tool.stderr.contains("landmark-near fixes: 2 records read, 2 fixes, 0 unreadable (interrupted by SIGINT)"), "\(tool.stderr)")
    }

    /// Input no reader can read is one line saying what it is and what to do, and 65.
    @Test(arguments: [
        ("bzip2", "bz2", "bzip2-compressed: decompress it first (bzcat"),
        ("xz", "xz", "xz-compressed: decompress it first (xzcat"),
    ])
    func compressedInputSaysHowToReadIt(_ compressor: String, _ suffix: String, _ says: String) async throws {
        let directory = try makeTemporaryDirectory("edges")
        let plain = directory.appendingPathComponent("fixes.csv").path
        try "lat,lon\n34.01,-116.16\n".write(toFile: plain, atomically: true, encoding: .utf8)
        let compressed = try await runProcess("/usr/bin/env", [compressor, "-k", plain])
        try #require(compressed.status == 0, "\(compressor): \(compressed.stderr)")
        let result = try await runTool(["watch", plain + "." + suffix])
        #expect(result.status == 65)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 2 && lines[0].hasPrefix("\(plain).\(suffix):1: \(says)"), "\(result.stderr)")
    }

    @Test func binaryInputIsOneLine() async throws {
        let binary = try Data(contentsOf: try toolExecutableURL()).prefix(200_000)
        let result = try await runTool(["watch"], stdinData: Data(binary))
        #expect(result.status == 65)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 2, "\(result.stderr.prefix(2000))")
        #expect(lines.first?.contains("binary data (a NUL byte at byte") == true, "\(lines.first ?? "")")
    }

    /// `--help COMMAND` as `COMMAND --help`; `help` listed; nautical miles; `payload --out`
    /// into a missing directory fails instead of making it.
    @Test func conventionsOfLinuxTools() async throws {
        let help = try await runTool(["--help", "nearest"])
        #expect(help.status == 0 && help.stdout.hasPrefix("Usage: landmark-near nearest"), "\(help.stdout.prefix(200))")
        let top = try await runTool(["--help"])
        #expect(top.stdout.contains("\n  help "), "\(top.stdout)")
        let nautical = try await runTool(["payload", "--id", "1001", "--radius", "3nm"])
        #expect(nautical.stdout.contains("You are within 3 nautical miles of Turtle Rock."), "\(nautical.stdout)")
        let directory = try makeTemporaryDirectory("edges")
        let missing = directory.appendingPathComponent("no/such/dir/x.apns").path
        let out = try await runTool(["payload", "--id", "1001", "--out", missing])
        #expect(out.status == 74, "\(out.stderr)")
        #expect(out.stderr.contains("does not exist"), "\(out.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("no").path))
    }

    /// `validate` reads stdin when given no file, and a directory's .apns files in name order.
    @Test func validateReadsStdinAndDirectories() async throws {
        let payload = try await runTool(["payload", "--id", "1001"])
        let stdin = try await runTool(["validate"], stdin: payload.stdout)
        #expect(stdin.status == 0 && stdin.stdout == "<stdin>: ok\n", "\(stdin.stdout) \(stdin.stderr)")
        let directory = try makeTemporaryDirectory("edges")
        for name in ["b.apns", "a.apns"] {
            try payload.stdout.write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        try "not a payload".write(to: directory.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
        let listed = try await runTool(["validate", directory.path])
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.stdout == "\(directory.path)/a.apns: ok\n\(directory.path)/b.apns: ok\n", "\(listed.stdout)")
    }

    /// `-q` leaves the summary out; errors and warnings still come.
    @Test func quietLeavesOutTheSummary() async throws {
        let quiet = try await runTool(["watch", "-q"], stdin: Self.turtleRock)
        #expect(quiet.status == 0 && quiet.stderr.isEmpty, "\(quiet.stderr)")
        #expect(quiet.stdout.contains(#""event":"enter""#))
        let fixes = try await runTool(["fixes", "--quiet"], stdin: Self.turtleRock + "{bad\n")
        #expect(fixes.status == 65)
        #expect(fixes.stderr.contains("<stdin>:2:") && !fixes.stderr.contains("records read"), "\(fixes.stderr)")
    }

    /// The bash completion offers an option's values (`--format n` → ndjson, nmea), and options.
    @Test func bashCompletionOffersValues() async throws {
        let script = repositoryRoot.appendingPathComponent("docs/completions/landmark-near.bash").path
        let result = try await runProcess(
            "/bin/bash",
            [
                "-c",
                #"source "$0"; COMP_WORDS=(landmark-near watch --format n); COMP_CWORD=3; _landmark_near; echo "${COMPREPLY[@]}"; COMP_WORDS=(landmark-near watch --events ""); COMP_CWORD=3; _landmark_near; echo "${COMPREPLY[@]}""#,
                script,
            ])
        #expect(result.stdout == "ndjson nmea\nnotifications all\n", "\(result.stdout) \(result.stderr)")
    }
}
