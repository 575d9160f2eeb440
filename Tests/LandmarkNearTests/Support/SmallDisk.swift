import Foundation

/// A directory where writes fail once a few hundred KiB are written: a full disk, for the
/// tests of what a run says when its state commit fails.
///
/// A tmpfs of that size is mounted on it where the tests may mount (root with
/// CAP_SYS_ADMIN, as on the CI machine): writes then fail with ENOSPC, as on a real full disk.
/// Elsewhere (a container without that capability) the tool runs with a file size limit
/// (RLIMIT_FSIZE) instead and SIGXFSZ ignored (an ignored signal stays ignored across exec), so
/// that a write past the limit fails with EFBIG rather than killing the process.
///
///     let disk = try await SmallDisk(kibibytes: 256)
///     defer { disk.remove() }
///     let result = try await disk.run(["watch", "--state", disk.path + "/s.db"], stdin: input)
final class SmallDisk: Sendable {
    let path: String
    let kibibytes: Int
    let isTmpfs: Bool

    init(kibibytes: Int) async throws {
        path = try makeTemporaryDirectory("small-disk").path
        self.kibibytes = kibibytes
        let mounted = try await runProcess("/bin/mount", ["-t", "tmpfs", "-o", "size=\(kibibytes)k", "tmpfs", path], timeout: 10)
        isTmpfs = mounted.status == 0
    }

    /// Runs the tool (the written files going to `path`): directly on a tmpfs, else under
    /// the file size limit.
    func run(_ arguments: [String], stdin: Data) async throws -> ToolResult {
        let tool = try toolExecutableURL().path
        if isTmpfs { return try await runProcess(tool, arguments, stdin: stdin, timeout: 120) }
        // bash's `ulimit -f` counts blocks of 1024 bytes.
        let script = "trap '' XFSZ; ulimit -f \(kibibytes); exec \"$0\" \"$@\""
        return try await runProcess("/bin/bash", ["-c", script, tool] + arguments, stdin: stdin, timeout: 120)
    }

    func remove() {
        if isTmpfs {
            let process = ChildProcess()
            process.executableURL = URL(fileURLWithPath: "/bin/umount")
            process.arguments = ["-l", path]
            try? process.run()
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(atPath: path)
    }
}
