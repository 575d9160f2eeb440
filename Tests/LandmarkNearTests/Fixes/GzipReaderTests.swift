import CZlib
import Foundation
import Testing

@_spi(Inlining) @testable import LandmarkNearCore
@testable import LandmarkNearServer

/// gzip inputs, with Debian's gzip(1) as the counterpart for real files and zlib's deflate for
/// the hostile ones.
@Suite(.suiteTimeLimit) struct GzipReaderTests {
    /// gzip -dc of the file, as a temporary file.
    static func gunzip(_ path: String) throws -> String {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/bin/gzip")
        process.arguments = ["-dc", path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return try FixReading.file(Array(data), name: "plain")
    }

    /// gpxgo's `graphhopper.gpx.gz`: the same records as gzip -dc's output.
    @Test func realGzippedGPX() throws {
        let path = FixReading.fixture("gzip/gpxgo-graphhopper.gpx.gz")
        let compressed = try FixReading.read(path: path)
        let plain = try FixReading.read(path: Self.gunzip(path))
        #expect(compressed.format == .gpx)
        #expect(
            compressed.records
                == plain.records.map { record in
                    guard case .invalid(var issue) = record else { return record }
                    issue.source = path
                    return .invalid(issue)
                })
        #expect(compressed.fixes.count == 193)
    }

    /// Any format inside: the fixture files of the other readers, gzipped, read alike.
    @Test(arguments: [
        "gpslogger.csv", "owntracks.ndjson", "gpsd/gpsfake-drive.nmea", "kml/togeojson-gxtrack.kml",
        "tcx/gpsbabel-kona2013.tcx", "geojson/togeojson-multitrack.kml.geojson",
        "owntracks-recorder/demo-iphone.rec",
    ])
    func anyFormatInside(_ name: String) throws {
        let plain = try FixReading.read(path: FixReading.fixture(name))
        let data = try Data(contentsOf: URL(fileURLWithPath: FixReading.fixture(name)))
        let compressed = try FixReading.read(bytes: Array(GzipWriter.compress(data)))
        #expect(compressed.format == plain.format)
        #expect(compressed.fixes == plain.fixes)
        #expect(compressed.lines == plain.lines)
        #expect(!compressed.fixes.isEmpty)
    }

    @Test func concatenatedMembersAreReadInTurn() throws {
        let first = GzipWriter.compress(Data("lat,lon\n1,2\n".utf8))
        let second = GzipWriter.compress(Data("3,4\n".utf8))
        let result = try FixReading.read(bytes: Array(first + second))
        #expect(result.fixes.map(\.coordinate) == [Coordinate(latitude: 1, longitude: 2), Coordinate(latitude: 3, longitude: 4)])
        #expect(result.issues.isEmpty)
    }

    @Test func truncatedAndCorruptStreamsKeepWhatCameBefore() throws {
        let text = (1...2000).map { "{\"lat\":\($0 % 80),\"lon\":2}" }.joined(separator: "\n") + "\n"
        let whole = GzipWriter.compress(Data(text.utf8))
        let truncated = try FixReading.read(bytes: Array(whole.prefix(whole.count / 2)))
        #expect(truncated.fixes.count > 10 && truncated.fixes.count < 2000)
        // The line cut in the middle, then why the input ended there.
        #expect(truncated.issues.count == 2)
        #expect(truncated.issues.last?.contains("gzip: the compressed data ends early (a truncated file?)") == true)
        // Deflate block type 3 does not exist.
        var corrupt = Array(whole)
        corrupt[10] = 0xFF
        let damaged = try FixReading.read(bytes: corrupt)
        #expect(damaged.fixes.isEmpty)
        #expect(damaged.issues.last?.contains("gzip: the compressed data is corrupt (invalid block type)") == true)
    }

    /// A 10 MB gzip that would inflate to 10 GB of zeros is stopped after about 64 MiB, in bounded
    /// memory and time, saying why; the same bomb gzipped twice more (a few KB) is refused at
    /// once: one layer of gzip is read, never a gzip inside it.
    @Test func bombsAreStoppedAndSayWhy() throws {
        let bomb = GzipWriter.bomb(gigabytes: 10)
        let started = Date()
        let result = try FixReading.read(bytes: Array(bomb))
        #expect(result.fixes.isEmpty)
        #expect(result.issues.count == 2, "\(result.issues)")
        #expect(result.issues.last?.contains("gzip: stopped after inflating 6") == true, "\(result.issues)")
        #expect(result.issues.last?.contains("a decompression bomb?") == true)
        let nested = GzipWriter.compress(GzipWriter.compress(bomb))
        #expect(nested.count < 64 << 10)
        let refused = try FixReading.read(bytes: Array(nested))
        #expect(
            refused.issues == [
                "<source>:1: gzip: the decompressed data is gzip again; nested compression is not read (a decompression bomb?)"
            ])
        print(
            "gzip bomb: \(bomb.count) bytes (10 GB inflated) stopped; nested \(nested.count) bytes refused; \(Date().timeIntervalSince(started)) s"
        )
    }
}
