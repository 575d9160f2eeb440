import Foundation
import Testing
@testable import LandmarkNear

@Suite struct PayloadInputTests {
    static func withFile<T>(_ bytes: [UInt8], _ body: (String) throws -> T) throws -> T {
        let directory = try PayloadFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("input")
        try Data(bytes).write(to: file)
        return try body(file.path)
    }

    @Test func readFileReportsWhatWentWrong() throws {
        #expect(throws: PayloadInputError(source: "/nonexistent/a.apns", kind: .missing, reason: "no such file")) {
            try PayloadInput.readFile("/nonexistent/a.apns")
        }
        let directory = try PayloadFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let error = #expect(throws: PayloadInputError.self) { try PayloadInput.readFile(directory.path) }
        #expect(error?.kind == .unreadable)
        try PayloadInputTests.withFile(Array(repeating: 0x20, count: 200_000)) { (path: String) throws in
            #expect(try PayloadInput.readFile(path).count == 200_000)
            let tooLarge = #expect(throws: PayloadInputError.self) { try PayloadInput.readFile(path, limit: 100_000) }
            #expect(tooLarge?.kind == .tooLarge)
            #expect(tooLarge?.reason.hasPrefix("is 200000 bytes") == true)
        }
    }

    @Test func linesSplitOnNewlinesAndDropCarriageReturns() throws {
        let text = "one\r\ntwo\n\nthree-without-newline"
        let lines = try PayloadInputTests.withFile(Array(text.utf8)) { path in
            let fd = try PayloadInput.openFile(path)
            defer { close(fd) }
            var reader = PayloadLines(descriptor: fd, name: path)
            var lines: [PayloadLines.Line] = []
            while let line = try reader.next() { lines.append(line) }
            return lines
        }
        #expect(lines.map { String(decoding: $0.bytes, as: UTF8.self) } == ["one", "two", "", "three-without-newline"])
        #expect(lines.map(\.number) == [1, 2, 3, 4])
        #expect(lines.allSatisfy { !$0.isTooLong })
    }

    @Test func aLineOverTheLimitIsFlaggedAndTheNextOneStillRead() throws {
        let long = [UInt8](repeating: 0x61, count: 300_000)
        let lines = try PayloadInputTests.withFile(Array("{}\n".utf8) + long + Array("\n{\"aps\":{}}\n".utf8)) { path in
            let fd = try PayloadInput.openFile(path)
            defer { close(fd) }
            var reader = PayloadLines(descriptor: fd, name: path, limit: 100_000)
            var lines: [PayloadLines.Line] = []
            while let line = try reader.next() { lines.append(line) }
            return lines
        }
        #expect(lines.map(\.isTooLong) == [false, true, false])
        #expect(lines[1].bytes.count <= 100_000)
        #expect(lines[2].bytes == Array("{\"aps\":{}}".utf8))
        #expect(lines[2].number == 3)
    }
}
