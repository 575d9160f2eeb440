import Foundation

@_spi(Inlining) @testable import LandmarkNearCore

/// Paths into the repository's `Payloads/` folder (the canonical sample and the fixtures the
/// tests parse), found from `repositoryRoot` (Support/ToolRunner.swift).
enum PayloadFixtures {
    static let payloadsFolder = repositoryRoot.appendingPathComponent("Payloads")
    static let canonicalSample = payloadsFolder.appendingPathComponent("PushNotificationPayload.apns")

    static func url(_ relativePath: String) -> URL {
        payloadsFolder.appendingPathComponent("Fixtures").appendingPathComponent(relativePath)
    }

    static func bytes(_ relativePath: String) throws -> [UInt8] {
        // The library's own reader (Foundation's Data(contentsOf:) leaks a 4 KiB buffer per
        // read on Linux, which AddressSanitizer's leak check reports).
        try InputFile.read(path: url(relativePath).path)
    }

    /// A fresh empty directory under the system's temporary directory (ToolRunner's helper).
    static func temporaryDirectory() throws -> URL {
        try makeTemporaryDirectory()
    }
}
