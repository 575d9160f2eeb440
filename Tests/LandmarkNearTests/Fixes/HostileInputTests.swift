import Foundation
import Testing

@_spi(Inlining) @testable import LandmarkNearCore
@testable import LandmarkNearReaders
@testable import LandmarkNearServer

/// Input that must neither crash the reader nor lose the good records around it.
@Suite(.suiteTimeLimit) struct HostileInputTests {
    static let good = #"{"device":"d1","lat":34.0,"lon":-116.0}"#

    @Test func fiveMegabyteLineWithoutNewlineAtTheEnd() throws {
        let long = "{\"lat\":" + String(repeating: "1", count: 5 << 20)
        let result = try FixReading.read([Self.good, Self.good, long].joined(separator: "\n"))
        #expect(result.lines == [1, 2])
        #expect(result.issues == ["<source>:3: line longer than 1048576 bytes; skipped"])
    }

    @Test func overlongLineInTheMiddleResumesAfterItsNewline() throws {
        let long = String(repeating: "x", count: 3 << 20)
        let result = try FixReading.read([Self.good, long, Self.good, long, Self.good].joined(separator: "\n") + "\n")
        #expect(result.lines == [1, 3, 5])
        #expect(
            result.issues == [
                "<source>:2: line longer than 1048576 bytes; skipped",
                "<source>:4: line longer than 1048576 bytes; skipped",
            ])
    }

    @Test func lineOfExactlyTheLimitIsRead() throws {
        // With a limit of 7 bytes, lines of 7 bytes (plus CRLF) are still read, 8 are not.
        let path = try FixReading.file("lat,lon\r\n1,2.000\r\n1,22\n1,2.0000\n")
        let reader = try FixReader(
            descriptor: open(path, O_RDONLY), ownsDescriptor: true, sourceName: "s",
            format: .csv, maximumLineLength: 7)
        var records: [FixRecord] = []
        while let record = try reader.next() { records.append(record) }
        #expect(
            records == [
                .fix(Fix(coordinate: Coordinate(latitude: 1, longitude: 2)), line: 2),
                .fix(Fix(coordinate: Coordinate(latitude: 1, longitude: 22)), line: 3),
                .invalid(FixReadIssue(source: "s", line: 4, reason: "line longer than 7 bytes; skipped")),
            ])
    }

    @Test func invalidUTF8() throws {
        var bytes = Array((Self.good + "\n").utf8)
        bytes += Array(#"{"device":"d"#.utf8) + [0xFF, 0xFE] + Array(#"","lat":1,"lon":2}"#.utf8) + [0x0A]
        bytes += [0xC3, 0x28, 0x0A]
        bytes += Array(Self.good.utf8)
        let result = try FixReading.read(bytes: bytes)
        #expect(result.lines == [1, 4])
        #expect(
            result.issues == [
                "<source>:2: invalid JSON at byte 10: invalid UTF-8 in a string",
                "<source>:3: invalid JSON at byte 0: unexpected character byte 0xC3",
            ])
    }

    @Test func invalidUTF8InCSVDeviceName() throws {
        let bytes = Array("device,lat,lon\nok,1,2\n".utf8) + [0x62, 0xFF] + Array(",1,2\nok,3,4\n".utf8)
        let result = try FixReading.read(bytes: bytes)
        #expect(result.issues == ["<source>:3: device name is not valid UTF-8"])
        #expect(result.fixes.map(\.device) == ["ok", "ok"])
    }

    @Test func nulBytesAndBinaryGarbage() throws {
        var bytes = Array((Self.good + "\n").utf8)
        bytes += [0x00, 0x01, 0x7B, 0x00, 0x0A]
        bytes += Array(#"{"lat":"1\u0000","lon":2}"#.utf8) + [0x0A]
        bytes += Array(Self.good.utf8)
        let result = try FixReading.read(bytes: bytes, format: .ndjson)
        #expect(result.lines == [1, 4])
        #expect(result.issues.count == 2)
        #expect(result.issues[1] == "<source>:3: latitude \"1\u{0}\" is not a number")
    }

    @Test(arguments: FixFormat.allCases)
    func emptyInput(_ format: FixFormat) throws {
        let result = try FixReading.read("", format: format)
        #expect(result.records.isEmpty)
        let blank = try FixReading.read("\n\n", format: format)
        #expect(blank.records.isEmpty)
    }

    @Test func emptyInputIsDetectedAsNothing() throws {
        let result = try FixReading.read("")
        #expect(result.records.isEmpty)
    }

    @Test func crlfLineEndingsAndBOM() throws {
        let text = "\u{FEFF}" + [Self.good, "", "# a comment", #"{"lat":95,"lon":1}"#, Self.good].joined(separator: "\r\n") + "\r\n"
        let result = try FixReading.read(text)
        #expect(result.lines == [1, 5])
        #expect(result.issues == ["<source>:4: latitude 95.0 is outside [-90, 90]"])
    }

    @Test func deeplyNestedJSON() throws {
        let nested = "{\"a\":" + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + "}"
        let result = try FixReading.read([Self.good, nested, Self.good].joined(separator: "\n"))
        #expect(result.lines == [1, 3])
        #expect(result.issues.count == 1)
        #expect(result.issues.first?.contains("nesting deeper than") == true)
    }

    @Test func missingFileAndDirectory() throws {
        #expect(throws: InputError(source: "/nonexistent/trace.gpx", reason: "no such file", kind: .missingInput)) {
            _ = try FixReader(input: .file("/nonexistent/trace.gpx"), format: nil)
        }
        let directory = try FixReading.temporaryDirectory().path
        do {
            let reader = try FixReader(input: .file(directory), format: .ndjson)
            _ = try reader.next()
            Issue.record("reading a directory succeeded")
        } catch {
            // A directory cannot be opened as an input: the same kind (and exit status, 66) as
            // for every other command's inputs.
            #expect(error.kind == .missingInput)
            #expect(error.description == "\(directory): is a directory")
        }
    }

    @Test func standardInputArgument() {
        #expect(FixInput(argument: "-") == .standardInput)
        #expect(FixInput(argument: "-").sourceName == "<stdin>")
        #expect(FixInput(argument: "a.gpx") == .file("a.gpx"))
    }
}

/// docs/reference/fixes.md: a non-finite accuracy makes the record unreadable, in every keyed format.
@Suite(.suiteTimeLimit)
struct NonFiniteAccuracyTests {
    @Test(arguments: [
        #"{"lat":1,"lon":1,"acc":"NaN"}"#, #"{"lat":1,"lon":1,"acc":1e999}"#,
        #"{"lat":1,"lon":1,"accuracy":"inf"}"#, #"{"lat":1,"lon":1,"eph":"-Infinity"}"#,
        "lat,lon,accuracy\n1,1,NaN",
    ])
    func nonFiniteAccuracyIsUnreadable(input: String) throws {
        let result = try FixReading.read(path: FixReading.file(input + "\n"))
        #expect(result.fixes.isEmpty)
        #expect(result.issues.count == 1)
        #expect(result.issues.first?.contains("accuracy") == true, "\(result.issues)")
    }
}
