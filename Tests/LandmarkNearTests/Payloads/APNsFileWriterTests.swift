import Foundation
import Testing

@_spi(Inlining) @testable import LandmarkNearCore
@testable import LandmarkNearOutputs

@Suite(.suiteTimeLimit) struct APNsFileWriterTests {
    @Test func writesExactlyThePayloadAndLeavesNoTemporaryFiles() throws {
        let base = try PayloadFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: base) }
        let directory = base.appendingPathComponent("nested/apns")
        let writer = try APNsFileWriter(directory: directory.path)
        let payload = APNsPayload.json(for: LandmarkCatalog.embedded[1], index: 1, options: PayloadOptions())
        let time = Timestamp(rfc3339: "2026-05-01T12:00:02Z")
        let path = try writer.write(payload, device: "../../d1", landmarkID: 1002, time: time, fixNumber: 1)
        #expect(URL(fileURLWithPath: path).deletingLastPathComponent().standardizedFileURL.path == directory.standardizedFileURL.path)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(payload.utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == [URL(fileURLWithPath: path).lastPathComponent])
    }

    @Test func aRerunRewritesTheSameName() throws {
        let directory = try PayloadFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let writer = try APNsFileWriter(directory: directory.path)
        let first = try writer.write("{\"aps\":{}}", device: "d1", landmarkID: 1002, time: nil, fixNumber: 9)
        let second = try writer.write("{\"aps\":{\"alert\":\"again\"}}", device: "d1", landmarkID: 1002, time: nil, fixNumber: 9)
        #expect(first == second)
        #expect(try String(contentsOfFile: second, encoding: .utf8) == "{\"aps\":{\"alert\":\"again\"}}")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).count == 1)
    }

    @Test func devicesThatSanitizeAlikeGetTheirOwnFiles() throws {
        let directory = try PayloadFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let writer = try APNsFileWriter(directory: directory.path)
        let devices = ["a/b", "a_b", "a\0b", "a\nb", "x", "x-1001", ".", "..", ""]
        for device in devices {
            try writer.write(device.debugDescription, device: device, landmarkID: 1001, time: nil, fixNumber: 1)
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(files.count == devices.count)
        #expect(files.allSatisfy { $0.hasSuffix(".apns") && !$0.hasPrefix(".") })
    }

    @Test func withoutSyncTheWritesAreTheSame() throws {
        let directory = try PayloadFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let writer = try APNsFileWriter(directory: directory.path, synchronizes: false)
        let path = try writer.write("{\"aps\":{}}", device: "d", landmarkID: 1, time: nil, fixNumber: 1)
        writer.synchronizeDirectory()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "{\"aps\":{}}")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["d-1-fix-1.apns"])
    }

    @Test func aDirectoryPathThatIsAFileIsAnError() throws {
        let directory = try PayloadFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("plain")
        try Data("x".utf8).write(to: file)
        #expect(throws: APNsWriteError.self) { try APNsFileWriter(directory: file.path) }
    }

    @Test func namesThatWouldLeaveTheDirectoryAreRefused() throws {
        let directory = try PayloadFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let writer = try APNsFileWriter(directory: directory.path)
        for name in ["", ".", "..", "../x.apns", "a/b.apns"] {
            #expect(throws: APNsWriteError.self) { try writer.write(Array("{}".utf8), named: name) }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }
}
