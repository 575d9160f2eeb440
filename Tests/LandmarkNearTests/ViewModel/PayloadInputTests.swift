import Foundation
import Testing

@_spi(Inlining) @testable import LandmarkNearCore
@testable import LandmarkNearParser

@Suite(.suiteTimeLimit) struct PayloadInputTests {
    static func withFile<T>(_ bytes: [UInt8], _ body: (String) throws -> T) throws -> T {
        let directory = try PayloadFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("input")
        try Data(bytes).write(to: file)
        return try body(file.path)
    }

    @Test func readFileReportsWhatWentWrong() throws {
        #expect(throws: InputError(source: "/nonexistent/a.apns", reason: "no such file", kind: .missingInput)) {
            try PayloadInput.readFile("/nonexistent/a.apns")
        }
        let directory = try PayloadFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let error = #expect(throws: InputError.self) { try PayloadInput.readFile(directory.path) }
        #expect(error?.kind == .missingInput)
        try PayloadInputTests.withFile(Array(repeating: 0x20, count: 200_000)) { (path: String) throws in
            #expect(try PayloadInput.readFile(path).count == 200_000)
            let tooLarge = #expect(throws: InputError.self) { try PayloadInput.readFile(path, limit: 100_000) }
            #expect(tooLarge?.kind == .badData)
            #expect(tooLarge?.reason.hasPrefix("is 200000 bytes") == true)
        }
    }

    /// What a `LineStream` hands out, as (number, bytes or nil when the line was too long).
    static func lines(of path: String, limit: Int = LineStream.defaultMaximumLineLength) throws -> [(number: Int, bytes: [UInt8]?)] {
        let lines = LineStream(descriptor: try InputFile.open(path), ownsDescriptor: true, sourceName: path, maximumLineLength: limit)
        var result: [(number: Int, bytes: [UInt8]?)] = []
        while let line = try lines.nextLine() {
            switch line {
            case .text(let bytes, let number): result.append((number, Array(bytes)))
            case .overlong(let number): result.append((number, nil))
            }
        }
        return result
    }

    @Test func linesSplitOnNewlinesAndDropCarriageReturns() throws {
        let text = "one\r\ntwo\n\nthree-without-newline"
        let lines = try PayloadInputTests.withFile(Array(text.utf8)) { try PayloadInputTests.lines(of: $0) }
        #expect(lines.map { String(decoding: $0.bytes ?? [], as: UTF8.self) } == ["one", "two", "", "three-without-newline"])
        #expect(lines.map(\.number) == [1, 2, 3, 4])
        #expect(lines.allSatisfy { $0.bytes != nil })
    }

    @Test func aLineOverTheLimitIsFlaggedAndTheNextOneStillRead() throws {
        let long = [UInt8](repeating: 0x61, count: 300_000)
        let lines = try PayloadInputTests.withFile(Array("{}\n".utf8) + long + Array("\n{\"aps\":{}}\n".utf8)) {
            try PayloadInputTests.lines(of: $0, limit: 100_000)
        }
        #expect(lines.map { $0.bytes == nil } == [false, true, false])
        #expect((lines[1].bytes ?? []).count <= 100_000)
        #expect(lines[2].bytes == Array("{\"aps\":{}}".utf8))
        #expect(lines[2].number == 3)
    }
}
