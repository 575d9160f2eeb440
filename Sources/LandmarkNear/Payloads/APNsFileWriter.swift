import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes notification payloads as `.apns` files into one directory (`watch --apns-dir`).
/// Each file holds exactly the payload bytes (no trailing newline) and is written atomically:
/// a temporary file in the same directory is written, fsynced and renamed over the final name,
/// so a reader never sees half a file and a rerun replaces the same names.
///
///     let writer = try APNsFileWriter(directory: "out/apns")
///     let path = try writer.write(payload, device: "d1", landmarkID: 1002,
///                                 time: fix.time, fixNumber: 12)
///     // "out/apns/d1-1002-20260501T120002Z.apns"
///     writer.synchronizeDirectory()   // once at the end: makes the renames durable too
///
/// The fsync of each file costs milliseconds on slow disks; `synchronizes: false` skips it
/// (renames stay atomic for readers, but a power loss may then leave empty files).
public struct APNsFileWriter: Sendable {
    public let directory: String
    /// Whether each file is fsynced before it is renamed into place.
    public let synchronizes: Bool

    /// Creates the directory (and its parents) when it is missing.
    public init(directory: String, synchronizes: Bool = true) throws(APNsWriteError) {
        self.synchronizes = synchronizes
        let trimmed = directory.isEmpty ? "." : directory
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: trimmed, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw APNsWriteError(path: trimmed, reason: "exists and is not a directory")
            }
        } else {
            try APNsFileWriter.makeDirectories(trimmed)
        }
        self.directory = trimmed
    }

    /// Writes `payload` under `APNsFileName.make(...)` and returns the file's path.
    @discardableResult
    public func write(_ payload: String, device: String, landmarkID: Int, time: Timestamp?, fixNumber: Int) throws(APNsWriteError) -> String {
        let name = APNsFileName.make(device: device, landmarkID: landmarkID, time: time, fixNumber: fixNumber)
        return try write(Array(payload.utf8), named: name)
    }

    /// Writes `bytes` atomically as `name` (a bare file name, no `/`) in the directory.
    @discardableResult
    public func write(_ bytes: [UInt8], named name: String) throws(APNsWriteError) -> String {
        guard !name.isEmpty, name != ".", name != "..", !name.contains("/"), !name.contains("\0") else {
            throw APNsWriteError(path: name, reason: "is not a plain file name")
        }
        let path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
        let temporary = (directory.hasSuffix("/") ? directory : directory + "/")
            + "." + name + ".tmp-" + String(UInt64.random(in: 0...UInt64.max), radix: 16)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw APNsWriteError(path: path, reason: "cannot create a temporary file: \(APNsFileWriter.errnoText())")
        }
        var failure: String?
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = "write failed: \(APNsFileWriter.errnoText())"
                    return
                }
                offset += written
            }
        }
        if failure == nil, synchronizes, fsync(fd) != 0 { failure = "fsync failed: \(APNsFileWriter.errnoText())" }
        if close(fd) != 0, failure == nil { failure = "close failed: \(APNsFileWriter.errnoText())" }
        if failure == nil, rename(temporary, path) != 0 { failure = "rename failed: \(APNsFileWriter.errnoText())" }
        if let failure {
            unlink(temporary)
            throw APNsWriteError(path: path, reason: failure)
        }
        return path
    }

    /// Makes the renames done so far durable (best effort): call it once after a batch of writes.
    public func synchronizeDirectory() {
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if fd >= 0 {
            _ = fsync(fd)
            close(fd)
        }
    }

    private static func errnoText() -> String { String(cString: strerror(errno)) }

    /// `mkdir -p`, with the system's reason when the directory cannot be made.
    private static func makeDirectories(_ path: String) throws(APNsWriteError) {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            // Foundation names the level that failed and wraps the system's reason.
            let info = (error as NSError).userInfo
            let reason = (info[NSUnderlyingErrorKey] as? NSError)?.localizedDescription ?? error.localizedDescription
            throw APNsWriteError(path: info[NSFilePathErrorKey] as? String ?? path, reason: "cannot create the directory: \(reason)")
        }
    }
}
