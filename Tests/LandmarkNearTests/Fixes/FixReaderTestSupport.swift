import Foundation
import Testing

@_spi(Inlining) @testable import LandmarkNearCore
@testable import LandmarkNearReaders
@testable import LandmarkNearServer

/// Helpers shared by the fix reader suites.
enum FixReading {
    /// The path of a fixture under `Fixtures/Fixes/`.
    static func fixture(_ name: String) -> String {
        Bundle.module.url(forResource: "Fixtures", withExtension: nil)!
            .appendingPathComponent("Fixes").appendingPathComponent(name).path
    }

    /// A fresh temporary directory for one test.
    static func temporaryDirectory() throws -> URL {
        try makeTemporaryDirectory("fixreader")
    }

    /// Writes `bytes` to a temporary file and returns its path.
    static func file(_ bytes: [UInt8], name: String = "input") throws -> String {
        let url = try temporaryDirectory().appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    static func file(_ text: String, name: String = "input") throws -> String {
        try file(Array(text.utf8), name: name)
    }

    struct Result {
        var format: FixFormat
        var records: [FixRecord]
        var skipped = SkipTally()
        var zonelessTime: ZonelessTime?

        var fixes: [Fix] {
            records.compactMap { if case .fix(let fix, _) = $0 { return fix } else { return nil } }
        }
        var lines: [Int] {
            records.compactMap { if case .fix(_, let line) = $0 { return line } else { return nil } }
        }
        var issues: [String] {
            records.compactMap { if case .invalid(let issue) = $0 { return issue.description } else { return nil } }
        }
    }

    /// Reads every record of a file.
    static func read(path: String, format: FixFormat? = nil) throws -> Result {
        let reader = try FixReader(input: .file(path), format: format)
        var records: [FixRecord] = []
        while let record = try reader.next() { records.append(record) }
        return Result(format: reader.format, records: records, skipped: reader.skipped, zonelessTime: reader.zonelessTime)
    }

    /// Reads every record of `text` written to a temporary file; issues name it `<source>`
    /// in place of its temporary path.
    static func read(_ text: String, format: FixFormat? = nil) throws -> Result {
        try read(bytes: Array(text.utf8), format: format)
    }

    static func read(bytes: [UInt8], format: FixFormat? = nil) throws -> Result {
        let path = try file(bytes)
        var result = try read(path: path, format: format)
        result.records = result.records.map { record in
            guard case .invalid(var issue) = record else { return record }
            #expect(issue.source == path)
            issue.source = "<source>"
            return .invalid(issue)
        }
        return result
    }

    static func time(_ text: String) -> Timestamp { Timestamp(rfc3339: text)! }
}
