import Foundation
import Testing

@_spi(Inlining) @testable import LandmarkNearCore

/// `--out` (payload, map) and `--geojson`: a link is followed and stays a link, a FIFO is
/// written to in place and stays a FIFO, a regular file is replaced.
@Suite(.suiteTimeLimit)
struct OutputFileTests {
    static let roadTrip = repositoryRoot.appendingPathComponent("Samples/road-trip.nmea").path

    /// The command's arguments with `OUT` standing for the path to write, and a word that the
    /// written file must hold.
    static let writers: [(name: String, arguments: [String], holds: String)] = [
        ("payload --out", ["payload", "--id", "1002", "--out", "OUT"], "Silver Salmon Creek"),
        ("map --out", ["map", roadTrip, "--out", "OUT"], "<html"),
        ("watch --geojson", ["watch", roadTrip, "--geojson", "OUT"], "FeatureCollection"),
    ]

    @Test(arguments: writers.indices)
    func aLinkIsFollowedAndStaysALink(_ writer: Int) async throws {
        let (_, arguments, holds) = Self.writers[writer]
        let directory = try makeTemporaryDirectory("out-link")
        defer { try? FileManager.default.removeItem(at: directory) }
        let real = directory.appendingPathComponent("real.out")
        let link = directory.appendingPathComponent("link.out")
        try "old".write(to: real, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: real.path)
        let result = try await runTool(arguments.map { $0 == "OUT" ? link.path : $0 })
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == real.path)
        #expect(try String(contentsOf: real, encoding: .utf8).contains(holds))
    }

    @Test(arguments: writers.indices)
    func aFIFOIsWrittenInPlace(_ writer: Int) async throws {
        let (_, arguments, holds) = Self.writers[writer]
        let directory = try makeTemporaryDirectory("out-fifo")
        defer { try? FileManager.default.removeItem(at: directory) }
        let fifo = directory.appendingPathComponent("pipe.out")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        // A reader on the FIFO (as `landmark-near map ... --out >(gzip)` would have), on a
        // thread of its own: a process would wait for one of the slots that the tools of the
        // other cases hold while they wait for their own readers (a deadlock in parallel runs).
        let reader = Task { await Self.readToEnd(fifo.path) }
        let result = try await runTool(arguments.map { $0 == "OUT" ? fifo.path : $0 })
        // A tool that never opened the FIFO leaves the reader in open(2): a writer that opens
        // and closes it ends that wait (and adds nothing).
        let unblock = open(fifo.path, O_WRONLY | O_NONBLOCK)
        if unblock >= 0 { close(unblock) }
        let read = await reader.value
        #expect(result.status == 0, "\(result.stderr)")
        #expect(String(decoding: read, as: UTF8.self).contains(holds))
        var info = stat()
        #expect(lstat(fifo.path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFIFO, "still a FIFO")
    }

    /// Everything written to the FIFO at `path` until its writers close it.
    static func readToEnd(_ path: String) async -> Data {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(returning: FileHandle(forReadingAtPath: path)?.readDataToEndOfFile() ?? Data())
            }
        }
    }

    @Test func targetsAreClassified() throws {
        let directory = try makeTemporaryDirectory("out-classify")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("f").path
        #expect(OutputFile.target(of: file) == .replace(file))  // nothing there yet
        FileManager.default.createFile(atPath: file, contents: Data())
        #expect(OutputFile.target(of: file) == .replace(file))
        #expect(OutputFile.target(of: "/dev/null") == .inPlace("/dev/null"))
    }
}
