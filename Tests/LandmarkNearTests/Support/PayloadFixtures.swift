import Foundation

/// Paths into the repository's `Payloads/` folder (the canonical sample and the fixtures the
/// tests parse), found from `repositoryRoot` (Support/ToolRunner.swift).
enum PayloadFixtures {
    static let payloadsFolder = repositoryRoot.appendingPathComponent("Payloads")
    static let canonicalSample = payloadsFolder.appendingPathComponent("PushNotificationPayload.apns")

    static func url(_ relativePath: String) -> URL {
        payloadsFolder.appendingPathComponent("Fixtures").appendingPathComponent(relativePath)
    }

    static func bytes(_ relativePath: String) throws -> [UInt8] {
        Array(try Data(contentsOf: url(relativePath)))
    }

    /// A fresh empty directory under the system's temporary directory (ToolRunner's helper).
    static func temporaryDirectory() throws -> URL {
        try makeTemporaryDirectory()
    }
}
