import Foundation
import Glibc
import Testing

/// A real gpsd (Debian's gpsd 3.22 under gpsfake, on loopback) replaying the committed NMEA
/// drive near Turtle Rock; `gpspipe -w` piped into `landmark-near watch`. gpsd's first TPV of a
/// session has a mode and no position: it must be skipped silently (exit 0, not 65).
@Suite(.suiteTimeLimit) struct GpsdEndToEndTests {
    static let gpsfake = "/usr/bin/gpsfake"
    static let gpspipe = "/usr/bin/gpspipe"
    static let installed =
        FileManager.default.isExecutableFile(atPath: gpsfake)
        && FileManager.default.isExecutableFile(atPath: gpspipe)

    @Test(.enabled(if: installed, "gpsd is not installed (Debian gpsd, gpsd-clients): run bash Scripts/setup.sh"))
    func gpspipeIntoWatch() throws {
        let port = try freePort()
        let fake = ChildProcess()
        fake.executableURL = URL(fileURLWithPath: Self.gpsfake)
        fake.arguments = ["-P", String(port), "-1", "-q", "-c", "0.05", FixReading.fixture("gpsd/gpsfake-drive.nmea")]
        fake.standardOutput = FileHandle.nullDevice
        fake.standardError = FileHandle.nullDevice
        try fake.run()
        // SIGTERM first: gpsfake then ends its gpsd (a SIGKILL alone would leave gpsd running),
        // but stays itself, so SIGKILL after a moment.
        defer {
            fake.signal(SIGTERM)
            if !fake.waitUntilExit(timeout: 3) {
                fake.signal(SIGKILL)
                fake.waitUntilExit()
            }
        }

        // gpsd takes a few seconds to listen on a busy machine: retry gpspipe until it connects.
        let deadline = Date().addingTimeInterval(45)
        var result: ToolResult?
        while Date() < deadline, result == nil {
            let pipe = ChildProcess()
            pipe.executableURL = URL(fileURLWithPath: Self.gpspipe)
            pipe.arguments = ["-w", "-x", "14", "127.0.0.1:\(port)"]
            let feed = Pipe()
            pipe.standardOutput = feed
            pipe.standardError = FileHandle.nullDevice
            let tool = ChildProcess()
            tool.executableURL = try toolExecutableURL()
            tool.arguments = ["watch", "--events", "all"]
            tool.standardInput = feed
            let output = Pipe()
            let errors = Pipe()
            tool.standardOutput = output
            tool.standardError = errors
            try tool.run()
            try pipe.run()
            let stdout = output.fileHandleForReading.readDataToEndOfFile()
            let stderr = errors.fileHandleForReading.readDataToEndOfFile()
            pipe.waitUntilExit()
            tool.waitUntilExit()
            if pipe.terminationStatus == 0 {
                result = ToolResult(
                    status: tool.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                    stderr: String(decoding: stderr, as: UTF8.self))
            } else {
                Thread.sleep(forTimeInterval: 0.5)
            }
        }
        let run = try #require(result, "gpspipe never connected to gpsfake on port \(port)")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("dropped: 0 unreadable"), "\(run.stderr)")
        #expect(run.stdout.contains(#""event":"enter""#) && run.stdout.contains(#""name":"Turtle Rock""#), "\(run.stdout)")
    }
}
