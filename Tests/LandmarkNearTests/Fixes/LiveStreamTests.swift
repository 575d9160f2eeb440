import Foundation
import Testing

@_spi(Inlining) @testable import LandmarkNearCore
@testable import LandmarkNearReaders
@testable import LandmarkNearServer

/// On a live pipe (`gpspipe -w | landmark-near watch`) a record is delivered as soon as its
/// line arrives, without waiting for more input.
@Suite(.suiteTimeLimit) struct LiveStreamTests {
    /// A pipe: the descriptor to read from, and a handle that writes to it.
    static func makePipe() throws -> (Int32, FileHandle) {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        return (ends[0], FileHandle(fileDescriptor: ends[1], closeOnDealloc: true))
    }

    @Test func recordArrivesBeforeTheWriterCloses() throws {
        let (readEnd, writer) = try Self.makePipe()
        let reader = try FixReader(descriptor: readEnd, ownsDescriptor: true, sourceName: "<stdin>", format: .ndjson)
        writer.write(Data(#"{"device":"d1","lat":1,"lon":2}"#.utf8 + [0x0A]))
        #expect(try reader.next() == .fix(Fix(device: "d1", coordinate: Coordinate(latitude: 1, longitude: 2)), line: 1))
        writer.write(Data(#"{"device":"d1","lat":3,"#.utf8))
        writer.write(Data(#""lon":4}"#.utf8 + [0x0A]))
        #expect(try reader.next() == .fix(Fix(device: "d1", coordinate: Coordinate(latitude: 3, longitude: 4)), line: 2))
        try writer.close()
        #expect(try reader.next() == nil)
    }

    @Test func nmeaIsDetectedAtItsFirstSentence() throws {
        let (readEnd, writer) = try Self.makePipe()
        writer.write(Data("{\"class\":\"VERSION\"}\n$GPGGA,115959.00,4807.0380,N,01131.0000,E,1,08,0.9,545.4,M,46.9,M,,*64\n".utf8))
        let reader = try FixReader(descriptor: readEnd, ownsDescriptor: true, sourceName: "<stdin>", format: nil)
        #expect(reader.format == .nmea)
        if case .fix(_, let line) = try reader.next() { #expect(line == 2) } else { Issue.record("no fix") }
        try writer.close()
        #expect(try reader.next() == nil)
    }

    @Test func shortFirstLineIsNotHeldBackByTheByteOrderMarkCheck() throws {
        let (readEnd, writer) = try Self.makePipe()
        let reader = try FixReader(descriptor: readEnd, ownsDescriptor: true, sourceName: "<stdin>", format: .csv)
        writer.write(Data("a\n".utf8))
        #expect(
            try reader.next()
                == .invalid(
                    FixReadIssue(
                        source: "<stdin>", line: 1,
                        reason: "the CSV header names no latitude column (lat, latitude); the rest of the input is not read")))
        try writer.close()
        #expect(try reader.next() == nil)
    }
}

/// Detection on a live stream: the first line that settles the format decides, at once.
@Suite(.suiteTimeLimit) struct LiveDetectionTests {
    @Test(arguments: [
        "# live\n{\"device\":\"d1\",\"lat\":1,\"lon\":2}\n",
        "{\"class\":\"VERSION\",\"release\":\"3.22\"}\n{\"device\":\"d1\",\"lat\":1,\"lon\":2}\n",
    ])
    func slowNDJSONStartsAtItsFirstLine(_ start: String) throws {
        let (readEnd, writer) = try LiveStreamTests.makePipe()
        writer.write(Data(start.utf8))
        let reader = try FixReader(descriptor: readEnd, ownsDescriptor: true, sourceName: "<stdin>", format: nil)
        #expect(reader.format == .ndjson)
        #expect(try reader.next() == .fix(Fix(device: "d1", coordinate: Coordinate(latitude: 1, longitude: 2)), line: 2))
        try writer.close()
    }

    @Test func slowCSVStartsAtItsFirstDataRow() throws {
        let (readEnd, writer) = try LiveStreamTests.makePipe()
        writer.write(Data("device,lat,lon\nd1,1,2\n".utf8))
        let reader = try FixReader(descriptor: readEnd, ownsDescriptor: true, sourceName: "<stdin>", format: nil)
        #expect(reader.format == .csv)
        #expect(try reader.next() == .fix(Fix(device: "d1", coordinate: Coordinate(latitude: 1, longitude: 2)), line: 2))
        try writer.close()
    }

    @Test func gpspipeRawHeadersWaitForTheFirstSentence() throws {
        let (readEnd, writer) = try LiveStreamTests.makePipe()
        writer.write(Data("{\"class\":\"VERSION\",\"release\":\"3.22\"}\n{\"class\":\"DEVICES\",\"devices\":[]}\n".utf8))
        let sentence = "$GPGGA,115959.00,4807.0380,N,01131.0000,E,1,08,0.9,545.4,M,46.9,M,,*64\n"
        // A GCD thread, not a task: the reader blocks its thread in read(2), and the tests'
        // cooperative pool may have no other thread to run a task on.
        let written = DispatchSemaphore(value: 0)
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(800)) {
            writer.write(Data(sentence.utf8))
            try? writer.close()
            written.signal()
        }
        let reader = try FixReader(descriptor: readEnd, ownsDescriptor: true, sourceName: "<stdin>", format: nil)
        #expect(reader.format == .nmea)
        written.wait()
    }
}
