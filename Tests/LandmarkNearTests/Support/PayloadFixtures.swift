import Foundation

/// Paths into the repository's `Payloads/` folder (the canonical sample and the fixtures the
/// tests parse), found from this source file's location.
enum PayloadFixtures {
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Support
        .deletingLastPathComponent()  // LandmarkNearTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()

    static let payloadsFolder = repositoryRoot.appendingPathComponent("Payloads")
    static let canonicalSample = payloadsFolder.appendingPathComponent("PushNotificationPayload.apns")

    static func url(_ relativePath: String) -> URL {
        payloadsFolder.appendingPathComponent("Fixtures").appendingPathComponent(relativePath)
    }

    static func bytes(_ relativePath: String) throws -> [UInt8] {
        Array(try Data(contentsOf: url(relativePath)))
    }

    /// A fresh empty directory under the system's temporary directory.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("landmark-near-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
