import Foundation
import Testing

@_spi(Inlining) @testable import LandmarkNearCore

/// `landmark-near landmarks` run as a process.
@Suite(.suiteTimeLimit) struct LandmarksCommandTests {
    @Test func listsTheEmbeddedTwelve() async throws {
        let result = try await runTool(["landmarks"])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 13)  // header + 12
        #expect(lines[1].hasPrefix("0      1001      yes"))
        #expect(lines[1].hasSuffix("Turtle Rock"))
        #expect(lines[2].contains("1002") && lines[2].contains("no") && lines[2].hasSuffix("Silver Salmon Creek"))
    }

    @Test func jsonIsOneObjectALandmark() async throws {
        let result = try await runTool(["landmarks", "--json"])
        #expect(result.status == 0)
        let objects = try result.stdout.split(separator: "\n").map { try JSONParser.parse(Array($0.utf8)) }
        #expect(objects.count == 12)
        #expect(objects.map { $0["index"]?.integer } == (0..<12).map { $0 })
        #expect(objects.filter { $0["isFavorite"] == .bool(true) }.compactMap { $0["id"]?.integer } == [1001, 1003, 1004])
        #expect(objects[1]["park"] == .string("Lake Clark National Park and Preserve"))
    }

    @Test func readsACatalogFile() async throws {
        let directory = try makeTemporaryDirectory("landmarks")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("c.json")
        try #"[{"id":5,"name":"A","coordinates":{"latitude":1,"longitude":2},"isFavorite":true}]"#
            .write(to: file, atomically: true, encoding: .utf8)
        let result = try await runTool(["landmarks", "--landmarks", "c.json", "--json"], currentDirectory: directory)
        #expect(result.status == 0)
        #expect(result.stdout == #"{"index":0,"id":5,"name":"A","latitude":1,"longitude":2,"isFavorite":true}"# + "\n")
    }

    @Test func refusedCatalogExits65NamingTheEntry() async throws {
        let directory = try makeTemporaryDirectory("landmarks")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("dup.csv")
        try "id,name,lat,lon\n1,A,1,2\n1,B,3,4\n".write(to: file, atomically: true, encoding: .utf8)
        let result = try await runTool(["landmarks", "--landmarks", file.path])
        #expect(result.status == 65)
        #expect(result.stderr.contains("entry 1 (id 1)"))
        #expect(result.stdout.isEmpty)
    }

    @Test func missingFileExits66AndUsageErrorsExit64() async throws {
        #expect(try await runTool(["landmarks", "--landmarks", "/no/such/file.json"]).status == 66)
        #expect(try await runTool(["landmarks", "extra"]).status == 64)
        #expect(try await runTool(["landmarks", "--nope"]).status == 64)
        let help = try await runTool(["landmarks", "--help"])
        #expect(help.status == 0 && help.stdout.contains("--landmarks FILE"))
    }
}
