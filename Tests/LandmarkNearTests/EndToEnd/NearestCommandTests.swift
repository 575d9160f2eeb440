import Foundation
import Testing

@_spi(Inlining) @testable import LandmarkNearCore
@_spi(Inlining) @testable import LandmarkNearGeodesy
@testable import LandmarkNearServer

/// `landmark-near nearest` run as a process.
@Suite(.suiteTimeLimit) struct NearestCommandTests {
    static func json(_ line: Substring) throws -> JSONValue { try JSONParser.parse(Array(line.utf8)) }

    @Test func answersOnePositionWithTheNearestLandmark() async throws {
        let result = try await runTool(["nearest", "34.0", "-116.0"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("Turtle Rock"))
        #expect(result.stdout.contains("15.466 km"))
        #expect(result.stderr.isEmpty)
    }

    @Test func jsonHasTheSpecShapeWithDistancesInMetres() async throws {
        let result = try await runTool(["nearest", "34.0", "-116.0", "--json", "-k", "2"])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 1)
        let expected = Geodesic.wgs84.distance(
            from: Coordinate(latitude: 34, longitude: -116),
            to: LandmarkCatalog.embedded[0].coordinate)
        #expect(
            lines[0] == #"{"lat":34.0,"lon":-116.0,"nearest":[{"index":0,"id":1001,"name":"Turtle Rock","distanceMeters":"#
                + JSONWriter.number((expected * 1000).rounded() / 1000)
                + #"},{"index":5,"id":1006,"name":"Lake McDonald","distanceMeters":1626102.241}]}"#)
    }

    @Test func negativeCoordinatesWorkAsPositionals() async throws {
        let result = try await runTool(["nearest", "-33.9", "151.2", "--json"])
        #expect(result.status == 0)
        let value = try Self.json(result.stdout.split(separator: "\n")[0])
        #expect(value["lat"] == .number(-33.9))
        #expect(value["nearest"]?.arrayValue?.count == 1)
    }

    @Test func acceptsOneLatCommaLonArgument() async throws {
        let result = try await runTool(["nearest", "34.0,-116.0", "--json"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix(#"{"lat":34.0,"lon":-116.0,"nearest":[{"index":0,"#))
        // A leading minus sign is a number, not an option, with or without "--" before it.
        for arguments in [
            ["nearest", "--json", "-33.9,151.2"], ["nearest", "--json", "--", "-33.9,151.2"], ["nearest", "-33.9,", "151.2", "--json"],
        ] {
            let south = try await runTool(arguments)
            #expect(south.status == 0, "\(arguments): \(south.stderr)")
            #expect(south.stdout.hasPrefix(#"{"lat":-33.9,"lon":151.2,"nearest":[{"#))
        }
        #expect(try await runTool(["nearest", "33.9,x"]).status == 64)
        #expect(try await runTool(["nearest", ","]).status == 64)
    }

    @Test(arguments: [
        (["-33.9,151.2"], #"{"lat":-33.9,"lon":151.2,"#), (["34.0", "-116.2"], #"{"lat":34.0,"lon":-116.2,"#),
        (["-33.9", "-70.6"], #"{"lat":-33.9,"lon":-70.6,"#), (["-.5", "-.25"], #"{"lat":-0.5,"lon":-0.25,"#),
        (["34,5", "-116,2"], #"{"lat":34.5,"lon":-116.2,"#), (["-33,9", "151,2"], #"{"lat":-33.9,"lon":151.2,"#),
        (["34,5 -116,2"], #"{"lat":34.5,"lon":-116.2,"#),
    ])
    func negativeAndDecimalCommaCoordinatesNeedNoDoubleDash(_ position: [String], _ prefix: String) async throws {
        let result = try await runTool(["nearest"] + position + ["--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix(prefix + #""nearest":[{"index":"#))
        #expect(result.stderr.isEmpty)
    }

    @Test(arguments: [
        (
            ["-116", "34"],
            "landmark-near nearest: latitude -116.0 is outside [-90, 90]; did you mean 34,-116? (order is latitude,longitude)"
        ),
        (
            ["-116.17,34.01"],
            "landmark-near nearest: latitude -116.17 is outside [-90, 90]; did you mean 34.01,-116.17? (order is latitude,longitude)"
        ),
        (["34,5,-116,2"], "landmark-near nearest: expected 'lat,lon' (two numbers), found 4 fields; decimal commas? write 34.5,-116.2"),
        (
            ["34,5", "-116.2"],
            "landmark-near nearest: latitude '34,5' is not a number (write 34.5: decimal commas only when both numbers have one)"
        ),
        (["-5x"], "landmark-near nearest: expected LAT LON (two numbers), or none (or '-') to read stdin, got 1 argument"),
    ])
    func swappedAndCommaMistakesGetAHint(_ position: [String], _ message: String) async throws {
        let result = try await runTool(["nearest"] + position)
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == message + "\n")
    }

    @Test func dashReadsStdin() async throws {
        let result = try await runTool(["nearest", "-", "--json"], stdin: "34,-116\n")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix(#"{"lat":34,"lon":-116,"nearest":[{"index":0,"id":1001,"#))
        #expect(try await runTool(["nearest", "-", "34"], stdin: "").status == 64)
    }

    @Test(arguments: ["lat,lon", "latitude,longitude", "LAT, LON", "\"Latitude\",\"Longitude\"", "'lat' 'lng'", "\u{FEFF}lat,lon"])
    func aFirstLineHeaderIsSkipped(_ header: String) async throws {
        let result = try await runTool(["nearest", "--json"], stdin: "# positions\n\n\(header)\r\n34,-116\n59.98 -152.66\n")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        let ids = try result.stdout.split(separator: "\n").map { try Self.json($0)["nearest"]?.arrayValue?.first?["id"] }
        #expect(ids == [.number(1001), .number(1002)])
    }

    @Test func aLongitudeFirstHeaderSwapsTheLinesAfterIt() async throws {
        let result = try await runTool(["nearest", "--json"], stdin: "lon,lat\n-116,34\n-152.66, 59.98\n34,-116\n")
        #expect(result.status == 65)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.first?.hasPrefix(#"{"lat":34,"lon":-116,"nearest":[{"index":0,"id":1001,"#) == true)
        #expect(lines.last?.hasPrefix(#"{"lat":59.98,"lon":-152.66,"nearest":[{"index":1,"id":1002,"#) == true)
        #expect(
            result.stderr.contains(
                "<stdin>:4: latitude -116.0 is outside [-90, 90]; did you mean -116,34? (order is longitude,latitude, as the header says)"))
    }

    @Test func aHeaderAfterTheFirstLineIsAnError() async throws {
        let result = try await runTool(["nearest", "--json"], stdin: "34,-116\nlat,lon\n")
        #expect(result.status == 65)
        #expect(result.stderr.contains("<stdin>:2: latitude 'lat' is not a number"))
    }

    @Test func stdinLinesGetTheSameHints() async throws {
        let result = try await runTool(["nearest", "--json"], stdin: "-116 34\n34,5 -116,2\n34,5,-116,2\n")
        #expect(result.status == 65)
        #expect(result.stdout.split(separator: "\n").count == 1)
        #expect(result.stdout.hasPrefix(#"{"lat":34.5,"lon":-116.2,"#))
        #expect(
            result.stderr.contains("<stdin>:1: latitude -116.0 is outside [-90, 90]; did you mean 34,-116? (order is latitude,longitude)"))
        #expect(result.stderr.contains("<stdin>:3: expected 'lat,lon' (two numbers), found 4 fields; decimal commas? write 34.5,-116.2"))
    }

    @Test func limitLargerThanTheCatalogListsEveryLandmark() async throws {
        let result = try await runTool(["nearest", "48.7", "-113.7", "-k", "100", "--json"])
        #expect(result.status == 0)
        let nearest = try #require(try Self.json(result.stdout.split(separator: "\n")[0])["nearest"]?.arrayValue)
        #expect(nearest.count == 12)
        let distances = nearest.compactMap { $0["distanceMeters"]?.doubleValue }
        #expect(distances == distances.sorted())
    }

    @Test func withinKeepsOnlyLandmarksInTheRadius() async throws {
        let inside = try await runTool(["nearest", "34.0", "-116.0", "--within", "10mi", "-k", "3", "--json"])
        #expect(inside.status == 0)
        #expect(try Self.json(inside.stdout.split(separator: "\n")[0])["nearest"]?.arrayValue?.count == 1)
        let outside = try await runTool(["nearest", "34.0", "-116.0", "--within", "5mi", "--json"])
        #expect(outside.stdout == #"{"lat":34.0,"lon":-116.0,"nearest":[]}"# + "\n")
        let human = try await runTool(["nearest", "34.0", "-116.0", "--within", "5mi"])
        #expect(human.stdout.contains("no landmark within 5mi"))
    }

    @Test func stdinIsAnsweredLineByLineAndBadLinesAreCounted() async throws {
        let input = "# positions\n34,-116\n\nnot,a number\n59.98,-152.66\n95,0\n1,2,3\n"
        let result = try await runTool(["nearest", "--json"], stdin: input)
        #expect(result.status == 65)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(try Self.json(lines[0])["nearest"]?.arrayValue?.first?["id"] == .number(1001))
        #expect(try Self.json(lines[1])["nearest"]?.arrayValue?.first?["id"] == .number(1002))
        #expect(result.stderr.contains("<stdin>:4: latitude 'not' is not a number"))
        #expect(result.stderr.contains("<stdin>:6: latitude 95.0 is outside [-90, 90]"))
        #expect(result.stderr.contains("<stdin>:7: expected 'lat,lon'"))
        #expect(result.stderr.contains("3 lines of stdin could not be read"))
    }

    /// Answers are formatted and written on a thread of their own, in batches of 4,096
    /// queries: over several batches (bad lines at their seams, in their middles, first and
    /// last), stdout and stderr on one pipe must hold each answer and each problem where its
    /// line was, and the answers must be those of the one-position form.
    @Test func aLongStreamKeepsAnswersAndProblemsInLineOrder() async throws {
        let badLines: Set<Int> = [1, 2, 4096, 4097, 4098, 8193, 9000, 12_001]
        var rng = IndexTestSupport.SeededGenerator(seed: 17)
        var input = ""
        var expected: [String] = []  // per input line: the answer's lat text, or "<stdin>:N:"
        var positions: [[String]] = []
        for line in 1...12_001 {
            if badLines.contains(line) {
                input += line % 2 == 0 ? "1,2,3\n" : "north,east\n"
                expected.append("<stdin>:\(line): ")
                positions.append([])
            } else {
                let latitude = String(format: "%.5f", Double.random(in: -89...89, using: &rng))
                let longitude = String(format: "%.5f", Double.random(in: -180...180, using: &rng))
                input += "\(latitude),\(longitude)\n"
                expected.append(#"{"lat":"# + latitude + ",")
                positions.append([latitude, longitude])
            }
        }
        let result = try await runProcess(
            "/bin/sh", ["-c", #"exec "$0" nearest --json 2>&1"#, try toolExecutableURL().path], stdin: Data(input.utf8),
            timeout: 120)
        #expect(result.status == 65)
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.count == expected.count + 2)
        for (position, prefix) in expected.enumerated() where position < lines.count {
            guard lines[position].hasPrefix(prefix) else {
                Issue.record("line \(position + 1): expected \(prefix)…, got \(lines[position].prefix(120))")
                return
            }
        }
        #expect(lines.dropLast().last == "landmark-near nearest: \(badLines.count) lines of stdin could not be read")
        // The same answers as the one-position form, at the batches' seams.
        for position in [2, 4094, 4098, 8191, 8193, 11_999] where position < lines.count && !positions[position].isEmpty {
            let one = try await runTool(["nearest", positions[position][0], positions[position][1], "--json"])
            #expect(one.stdout == lines[position] + "\n")
        }
    }

    /// A producer that writes a line and waits gets its answer (and a bad line's report) at
    /// once, before it writes the next line.
    @Test func aLiveProducerGetsEachAnswerBeforeItWritesTheNext() throws {
        let tool = try LiveTool(["nearest"])
        tool.write("34,-116\n")
        #expect(tool.waitForStdoutLines(2), "no answer to the first line: \(tool.stdout)")
        tool.write("95,0\n")
        #expect(tool.waitForStderr(containing: "<stdin>:2: latitude 95.0 is outside [-90, 90]"), "\(tool.stderr)")
        tool.write("59.98,-152.66\n")
        #expect(tool.waitForStdoutLines(3), "no answer to the third line: \(tool.stdout)")
        #expect(tool.completeStdoutLines.last?.contains("Silver Salmon Creek") == true, "\(tool.stdout)")
        tool.closeInput()
        #expect(tool.wait() == 65)
    }

    /// A reader that goes away early ends the stream quietly with exit 0, as it ends `watch`
    /// (the writing thread meets the error, the reading one stops; docs/reference/exit-statuses.md).
    @Test func aClosedStdoutEndsTheStreamQuietly() async throws {
        let input = String(repeating: "34,-116\n", count: 2_000_000)
        let result = try await runProcess(
            "/bin/bash",
            ["-c", #""$0" nearest | head -c 100 > /dev/null; echo "status ${PIPESTATUS[0]}" >&2"#, try toolExecutableURL().path],
            stdin: Data(input.utf8), timeout: 60)
        #expect(!result.stderr.contains("Broken pipe"), "\(result.stderr)")
        #expect(result.stderr.hasSuffix("status 0\n"), "\(result.stderr)")
    }

    /// The same while stdin stays open after a line: the answers of a pause are written before
    /// the next read, so the failed write ends the stream at once, not when stdin ends.
    ///
    /// The line is sent only once `head` has read its 10 bytes of the header and every read end
    /// of stdout is closed (the flag file). Sent at once, header and answer could both land in
    /// the pipe before `head` exits, and nothing would fail: CI met that race on a loaded machine.
    @Test func aClosedStdoutEndsTheStreamWhileStdinStaysOpen() async throws {
        let script = #"""
            flag=$(mktemp -u)
            { while [ ! -e "$flag" ]; do sleep 0.05; done; echo 34,-116; sleep 6; } \
              | { "$0" nearest; echo "status $? after $SECONDS s" >&2; } \
              | { head -c 10 > /dev/null; exec 0<&-; touch "$flag"; }
            rm -f "$flag"
            """#
        let result = try await runProcess("/bin/bash", ["-c", script, try toolExecutableURL().path], timeout: 60)
        #expect(!result.stderr.contains("Broken pipe"), "\(result.stderr)")
        // Ended by the failed write, within a start-up of the tool, not by stdin's end (6 s later).
        let endedEarly = (0...4).contains { result.stderr.hasSuffix("status 0 after \($0) s\n") }
        #expect(endedEarly, "\(result.stderr)")
    }

    /// A closed stderr loses the messages, not the run: the exit status still tells.
    @Test(arguments: [(["nearest", "95", "0"], "", 64), (["nearest"], "bad\n34,-116\n", 65)])
    func aClosedStderrKeepsTheExitStatus(_ arguments: [String], _ input: String, _ status: Int32) async throws {
        let result = try await runProcess(
            "/bin/bash", ["-c", #"exec 2>&-; exec "$0" "$@""#, try toolExecutableURL().path] + arguments, stdin: Data(input.utf8),
            timeout: 60)
        #expect(result.status == status, "\(result.stdout)")
    }

    @Test func cleanStdinExitsZero() async throws {
        let result = try await runTool(["nearest"], stdin: "\u{FEFF}34,-116\r\n60.1,-141.5\r\n")
        #expect(result.status == 0)
        #expect(result.stdout.contains("Turtle Rock"))
        #expect(result.stdout.contains("Icy Bay"))
        #expect(result.stderr.isEmpty)
    }

    @Test func usesTheCatalogGiven() async throws {
        let directory = try makeTemporaryDirectory("nearest")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("places.csv")
        try "name,lat,lon\nDateline East,-16.5,179.99\nDateline West,-16.5,-179.99\n".write(to: file, atomically: true, encoding: .utf8)
        let result = try await runTool(["nearest", "-16.5", "-179.999", "--landmarks", file.path, "--json"])
        #expect(result.status == 0)
        let nearest = try #require(try Self.json(result.stdout.split(separator: "\n")[0])["nearest"]?.arrayValue)
        #expect(nearest.first?["name"] == .string("Dateline West"))
        #expect(nearest.first?["id"] == .number(2))
    }

    @Test(arguments: [
        ["nearest", "34"], ["nearest", "abc", "1"], ["nearest", "91", "0"], ["nearest", "0", "181"],
        ["nearest", "1", "2", "-k", "x"], ["nearest", "1", "2", "-k", "0"], ["nearest", "1", "2", "--within", "5"],
        ["nearest", "1", "2", "3"], ["nearest", "1", "2", "--bogus"], ["nearest", "nan", "0"],
    ])
    func usageErrorsExit64WithOneLine(_ arguments: [String]) async throws {
        let result = try await runTool(arguments)
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    @Test func missingCatalogFileExits66() async throws {
        let result = try await runTool(["nearest", "1", "2", "--landmarks", "/nonexistent/landmarks.json"])
        #expect(result.status == 66)
        #expect(result.stderr.contains("/nonexistent/landmarks.json"))
    }

    @Test func helpDescribesEveryOption() async throws {
        let result = try await runTool(["nearest", "--help"])
        #expect(result.status == 0)
        for option in ["-k N", "--within", "--landmarks", "--json", "stdin", "'-'", "names the columns", "Decimal commas", "did you mean"] {
            #expect(result.stdout.contains(option))
        }
    }
}
