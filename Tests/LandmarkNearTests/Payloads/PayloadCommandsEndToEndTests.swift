import Foundation
import Testing

@_spi(Inlining) @testable import LandmarkNearCore

/// `payload`, `parse` and `validate` run as processes, as a user runs them.
@Suite(.suiteTimeLimit) struct PayloadCommandsEndToEndTests {
    static let sample =
        #"{"aps":{"alert":{"title":"Silver Salmon Creek","body":"You are within 5 miles of Silver Salmon Creek."},"category":"LandmarkNear","thread-id":"5280"},"landmarkIndex":1}"#

    @Test(arguments: [["--id", "1002"], ["--index", "1"], ["--id", "1002", "--index", "1"], ["--id=1002", "--radius", "5.0mi"]])
    func payloadPrintsTheSpecSample(arguments: [String]) async throws {
        let result = try await runTool(["payload"] + arguments)
        #expect(result.status == 0)
        #expect(result.stdout == PayloadCommandsEndToEndTests.sample + "\n")
        #expect(result.stderr.isEmpty)
    }

    @Test func payloadOutDashIsStdout() async throws {
        let directory = try makeTemporaryDirectory("payload-out")
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try await runTool(["payload", "--id", "1002", "--out", "-"], currentDirectory: directory)
        #expect(result.status == 0)
        #expect(result.stdout == PayloadCommandsEndToEndTests.sample + "\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty, "no file named '-'")
    }

    @Test func payloadOptions() async throws {
        let result = try await runTool([
            "payload", "--id", "1008", "--radius", "1000ft", "--thread-id", "alaska", "--bundle-id", "com.example.app",
        ])
        #expect(result.status == 0)
        #expect(
            result.stdout
                == #"{"Simulator Target Bundle":"com.example.app","aps":{"alert":{"title":"Icy Bay","body":"You are within 1000 feet of Icy Bay."},"category":"LandmarkNear","thread-id":"alaska"},"landmarkIndex":7}"#
                + "\n")
    }

    @Test func theCanonicalSampleIsWhatTheToolWrites() async throws {
        let directory = try PayloadFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("sub/PushNotificationPayload.apns")
        // The directory must exist: --out never makes one (a typo would become a new tree).
        try FileManager.default.createDirectory(at: out.deletingLastPathComponent(), withIntermediateDirectories: false)
        let result = try await runTool(["payload", "--id", "1002", "--out", out.path])
        #expect(result.status == 0)
        #expect(result.stdout.isEmpty)
        let written = try Data(contentsOf: out)
        #expect(written == Data(PayloadCommandsEndToEndTests.sample.utf8), "exactly the payload bytes, no newline")
        #expect(written == (try Data(contentsOf: PayloadFixtures.canonicalSample)), "Payloads/PushNotificationPayload.apns is current")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: out.deletingLastPathComponent().path) == ["PushNotificationPayload.apns"])
    }

    @Test(arguments: [
        ["payload"], ["payload", "--id", "9999"], ["payload", "--id", "abc"], ["payload", "--id", "1002", "--index", "2"],
        ["payload", "--index", "12"], ["payload", "--index", "-1"], ["payload", "--id", "1002", "--radius", "5"],
        ["payload", "--id", "1002", "--radius", "-5mi"], ["payload", "--id", "1002", "--bundle-id", ""],
        ["payload", "--id", "1002", "--thread-id", String(repeating: "t", count: 5000)],
        ["payload", "--id", "1002", "--bundle-id", String(repeating: "b", count: 4100)],
        ["payload", "--id", "1002", "--colour", "red"], ["payload", "--id", "1002", "extra"],
        ["parse", "--nope"], ["validate", "--json", "a.apns"],
    ])
    func usageErrorsExit64(arguments: [String]) async throws {
        let result = try await runTool(arguments)
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        #expect(!result.stderr.isEmpty && result.stderr.split(separator: "\n").count == 1, "a one-line reason")
    }

    @Test func payloadWithAMissingCatalogExits66() async throws {
        let result = try await runTool(["payload", "--id", "1002", "--landmarks", "/nonexistent/landmarks.json"])
        #expect(result.status == 66)
    }

    @Test func payloadFromACatalogFileShortensHugeNames() async throws {
        let directory = try PayloadFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let catalog = directory.appendingPathComponent("catalog.json")
        let name = String(repeating: "👨‍👩‍👧‍👦", count: 300)
        try Data(("[{\"id\":7,\"name\":\"" + name + "\",\"coordinates\":{\"latitude\":1,\"longitude\":2}}]").utf8).write(to: catalog)
        let result = try await runTool(["payload", "--id", "7", "--landmarks", catalog.path])
        #expect(result.status == 0)
        let payload = String(result.stdout.dropLast())
        #expect(payload.utf8.count <= 4096)
        #expect(payload.contains("…"))
        let validated = try await runTool(["validate", "-"], stdin: result.stdout)
        #expect(validated.status == 0)
        #expect(validated.stdout == "<stdin>: ok\n")
    }

    @Test func parsePrintsACardFromStdin() async throws {
        let result = try await runTool(["parse"], stdin: PayloadCommandsEndToEndTests.sample)
        #expect(result.status == 0)
        #expect(
            result.stdout == """
                <stdin>
                  Silver Salmon Creek
                  ───────────────────
                  You are within 5 miles of Silver Salmon Creek.
                  Lake Clark National Park and Preserve, Alaska
                  landmark #1: Silver Salmon Creek (id 1002)

                """)
    }

    @Test func parseJSONOverFixtureFiles() async throws {
        let result = try await runTool(
            ["parse", "--json", "parse/alert-string.apns", "parse/out-of-range-index.apns", "parse/null-index.apns"],
            currentDirectory: PayloadFixtures.url(""))
        #expect(result.status == 0)
        #expect(
            result.stdout.split(separator: "\n").map(String.init) == [
                #"{"source":"parse/alert-string.apns","title":"Unknown Landmark","message":"Hello from the trail","landmark":{"index":2,"id":1003,"name":"Chilkoot Trail","park":"Klondike Gold Rush National Historical Park","state":"Alaska"}}"#,
                #"{"source":"parse/out-of-range-index.apns","title":"Far Away","message":"You are within 5 miles of one of your favorite landmarks.","landmark":null}"#,
                #"{"source":"parse/null-index.apns","title":"Icy Bay","message":"You are within 5 miles of one of your favorite landmarks.","landmark":null}"#,
            ])
        #expect(result.stderr.contains("parse/out-of-range-index.apns"))
        #expect(result.stderr.contains("$.landmarkIndex"))
    }

    @Test func parseWithAStringsTable() async throws {
        let result = try await runTool(
            ["parse", "--json", "--strings", "parse/Localizable.strings", "parse/localized.apns"],
            currentDirectory: PayloadFixtures.url(""))
        #expect(result.status == 0)
        #expect(
            result.stdout.hasPrefix(
                #"{"source":"parse/localized.apns","title":"Near Icy Bay","message":"You are within 5 miles of \"Icy Bay\" — 100% sure.","landmark":{"index":7,"id":1008,"#
            ))
        #expect(result.stderr.isEmpty)
        let missingTable = try await runTool(
            ["parse", "--strings", "nope.strings", "parse/localized.apns"], currentDirectory: PayloadFixtures.url(""))
        #expect(missingTable.status == 66)
    }

    @Test func rejectedPayloadsPrintNothingAndExit65WhileOthersGoOn() async throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: PayloadFixtures.url("reject").path).sorted().map { "reject/" + $0 }
        #expect(files.count >= 12)
        let result = try await runTool(["parse", "--json"] + files + ["parse/float-index.apns"], currentDirectory: PayloadFixtures.url(""))
        #expect(result.status == 65)
        #expect(result.stdout.split(separator: "\n").count == 1)
        #expect(result.stdout.contains(#""source":"parse/float-index.apns""#))
        for file in files {
            #expect(result.stderr.contains(file + ": "), "an error names \(file)")
        }
        #expect(result.stderr.contains("reject/title-number.apns: $.aps.alert.title: must be a string"))
    }

    @Test func parseNDJSONFromStdin() async throws {
        let lines = [
            PayloadCommandsEndToEndTests.sample, "", #"{"aps":{"alert":7}}"#, #"{"aps":{"alert":"Hi"},"landmarkIndex":0}"#, "not json",
        ]
        let result = try await runTool(["parse", "--ndjson", "--json"], stdin: lines.joined(separator: "\n"))
        #expect(result.status == 65)
        let out = result.stdout.split(separator: "\n").map(String.init)
        #expect(out.count == 2)
        #expect(out.first?.hasPrefix(#"{"source":"<stdin>:1","title":"Silver Salmon Creek""#) == true)
        #expect(out.last?.hasPrefix(#"{"source":"<stdin>:4","title":"Unknown Landmark","message":"Hi""#) == true)
        #expect(result.stderr.contains("<stdin>:3: $.aps.alert"))
        #expect(result.stderr.contains("<stdin>:5: not JSON"))
    }

    /// `watch | parse --ndjson` and `watch | validate --ndjson -`: event lines carry their
    /// payload under "payload"; exits and suppressed enters have none and are skipped.
    @Test func parseAndValidateTakeWatchsEventLines() async throws {
        let trace = try String(contentsOf: repositoryRoot.appendingPathComponent("Samples/road-trip.nmea"), encoding: .utf8)
        let watch = try await runTool(["watch", "--events", "all"], stdin: trace)
        #expect(watch.status == 0)
        let events = watch.stdout.split(separator: "\n")
        #expect(events.count == 4, "two enters and two exits")
        let parsed = try await runTool(["parse", "--ndjson", "--json"], stdin: watch.stdout)
        #expect(parsed.status == 0)
        #expect(parsed.stderr.isEmpty, "\(parsed.stderr)")
        let models = parsed.stdout.split(separator: "\n")
        #expect(models.count == 2)
        #expect(
            models.first?.hasPrefix(
                #"{"source":"<stdin>:1","title":"Turtle Rock","message":"You are within 5 miles of Turtle Rock.","landmark":{"index":0,"id":1001"#
            ) == true)
        #expect(models.last?.hasPrefix(#"{"source":"<stdin>:3","title":"St. Mary Lake""#) == true)
        let validated = try await runTool(["validate", "--ndjson", "-"], stdin: watch.stdout)
        #expect(validated.status == 0)
        #expect(validated.stdout == "<stdin>:1: ok\n<stdin>:3: ok\n")
        // A broken payload inside an event line is still found, with the line's number.
        let broken = #"{"event":"enter","device":"d","payload":{"aps":{"badge":"3"},"landmarkIndex":0}}"#
        let bad = try await runTool(["validate", "--ndjson", "-"], stdin: "\n" + broken + "\n")
        #expect(bad.status == 65)
        #expect(bad.stdout.contains("<stdin>:2: invalid (1 problem)"))
        #expect(bad.stdout.contains("$.aps.badge"))
    }

    @Test func missingFilesExit66UnlessSomethingWasRejected() async throws {
        let missing = try await runTool(["parse", "parse/alert-string.apns", "nope.apns"], currentDirectory: PayloadFixtures.url(""))
        #expect(missing.status == 66)
        #expect(missing.stderr.contains("nope.apns"))
        #expect(missing.stdout.contains("Hello from the trail"))
        let both = try await runTool(["parse", "nope.apns", "reject/empty.apns"], currentDirectory: PayloadFixtures.url(""))
        #expect(both.status == 65)
        let directory = try await runTool(["parse", "parse"], currentDirectory: PayloadFixtures.url(""))
        #expect(directory.status == 66)
    }

    @Test func hostileFilesAreRejected() async throws {
        let directory = try PayloadFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let big = directory.appendingPathComponent("big.apns")
        try Data(repeating: 0x20, count: 10 << 20).write(to: big)
        let deep = directory.appendingPathComponent("deep.apns")
        try Data(String(repeating: "[", count: 10_000).utf8).write(to: deep)
        let utf8 = directory.appendingPathComponent("utf8.apns")
        try Data([0x7B, 0x22, 0x61, 0x70, 0x73, 0x22, 0x3A, 0xFF, 0x7D]).write(to: utf8)
        for file in [big, deep, utf8] {
            let result = try await runTool(["parse", file.path])
            #expect(result.status == 65)
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.contains(file.path))
            let validated = try await runTool(["validate", file.path])
            #expect(validated.status == 65)
        }
    }

    @Test func validateReportsPathsAndStatuses() async throws {
        let ok = try await runTool(
            ["validate", "validate/valid-full.apns", "validate/unknown-aps-key.apns"], currentDirectory: PayloadFixtures.url(""))
        #expect(ok.status == 0)
        #expect(ok.stdout.hasPrefix("validate/valid-full.apns: ok\nvalidate/unknown-aps-key.apns: ok (1 warning)\n"))
        #expect(ok.stdout.contains("validate/unknown-aps-key.apns: warning: $.aps.x-custom"))

        let bad = try await runTool(
            ["validate", "validate/badge-string.apns", "validate/valid-minimal.apns"], currentDirectory: PayloadFixtures.url(""))
        #expect(bad.status == 65)
        #expect(
            bad.stdout == "validate/badge-string.apns: invalid (1 problem)\n"
                + #"validate/badge-string.apns: $.aps.badge: must be a non-negative integer, got "3""# + "\n"
                + "validate/valid-minimal.apns: ok\n")
        #expect(bad.stderr.isEmpty)

        let missing = try await runTool(
            ["validate", "validate/valid-minimal.apns", "nope.apns"], currentDirectory: PayloadFixtures.url(""))
        #expect(missing.status == 66)
        #expect(missing.stderr.contains("nope.apns: no such file"))

        let both = try await runTool(["validate", "nope.apns", "validate/no-aps.apns"], currentDirectory: PayloadFixtures.url(""))
        #expect(both.status == 65)

        let notJSON = try await runTool(["validate", "-"], stdin: "{\"aps\": nope}")
        #expect(notJSON.status == 65)
        #expect(notJSON.stdout.contains("<stdin>: $: not JSON: invalid JSON at byte 8"))
    }

    @Test func validateAcceptsTheCanonicalSample() async throws {
        let result = try await runTool(["validate", PayloadFixtures.canonicalSample.path])
        #expect(result.status == 0)
        #expect(result.stdout.hasSuffix("PushNotificationPayload.apns: ok\n"))
    }

    @Test(arguments: ["payload", "parse", "validate"])
    func helpDocumentsTheExitStatuses(command: String) async throws {
        let result = try await runTool([command, "--help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("Usage: landmark-near \(command)"))
        #expect(result.stdout.contains("Exit status"))
    }
}
