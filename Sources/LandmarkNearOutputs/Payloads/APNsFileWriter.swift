import CLinux
import Foundation
@_spi(Inlining) import LandmarkNearCore

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
package struct APNsFileWriter: Sendable {
    package let directory: String
    /// Whether each file is fsynced before it is renamed into place.
    package let synchronizes: Bool
    /// Temporary files of an earlier, killed run that opening the directory removed.
    package let removedLeftovers: Int

    /// Creates the directory (and its parents) when it is missing, and removes the temporary
    /// files (`.NAME.apns.tmp-HEX`) a killed run left there (docs/reference/output.md).
    package init(directory: String, synchronizes: Bool = true) throws(APNsWriteError) {
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
        removedLeftovers = APNsFileWriter.removeLeftovers(in: trimmed)
    }

    /// Whether `name` is one of this writer's temporary files.
    static func isTemporaryName(_ name: String) -> Bool {
        guard name.hasPrefix("."), let marker = name.range(of: "." + APNsFileName.fileExtension + ".tmp-") else { return false }
        let suffix = name[marker.upperBound...]
        return !suffix.isEmpty && suffix.allSatisfy(\.isHexDigit)
    }

    private static func removeLeftovers(in directory: String) -> Int {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return 0 }
        var removed = 0
        for name in names where isTemporaryName(name) {
            if unlink(directory + "/" + name) == 0 { removed += 1 }
        }
        return removed
    }

    /// Writes `payload` under `APNsFileName.make(...)` and returns the file's path.
    @discardableResult
    package func write(_ payload: String, device: String, landmarkID: Int, time: Timestamp?, fixNumber: Int) throws(APNsWriteError)
        -> String
    {
        let name = APNsFileName.make(device: device, landmarkID: landmarkID, time: time, fixNumber: fixNumber)
        return try write(Array(payload.utf8), named: name)
    }

    /// Writes `bytes` atomically as `name` (a bare file name, no `/`) in the directory.
    @discardableResult
    package func write(_ bytes: [UInt8], named name: String) throws(APNsWriteError) -> String {
        try write(batch: [(name, bytes)])[0]
    }

    /// Writes several files atomically: all temporary files are written first, then made
    /// durable together (one `syncfs` of the directory's file system for a batch: one fsync
    /// each costs milliseconds apiece on a busy disk), then renamed into place. Returns the paths.
    @discardableResult
    package func write(batch files: [(name: String, bytes: [UInt8])]) throws(APNsWriteError) -> [String] {
        var written: [(descriptor: Int32, temporary: String, path: String)] = []
        func abandon() {
            for file in written {
                if file.descriptor >= 0 { close(file.descriptor) }
                unlink(file.temporary)
            }
        }
        let prefix = directory.hasSuffix("/") ? directory : directory + "/"
        for (name, bytes) in files {
            guard !name.isEmpty, name != ".", name != "..", !name.contains("/"), !name.contains("\0") else {
                abandon()
                throw APNsWriteError(path: name, reason: "is not a plain file name")
            }
            let path = prefix + name
            let temporary = prefix + "." + name + ".tmp-" + String(UInt64.random(in: 0...UInt64.max), radix: 16)
            let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            guard fd >= 0 else {
                let reason = "cannot create a temporary file: \(APNsFileWriter.errnoText())"
                abandon()
                throw APNsWriteError(path: path, reason: reason)
            }
            written.append((fd, temporary, path))
            var failure: String?
            bytes.withUnsafeBytes { raw in
                var offset = 0
                while offset < raw.count {
                    let count = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                    if count < 0 {
                        if errno == EINTR { continue }
                        failure = "write failed: \(APNsFileWriter.errnoText())"
                        return
                    }
                    offset += count
                }
            }
            if let failure {
                abandon()
                throw APNsWriteError(path: path, reason: failure)
            }
        }
        let together = synchronizes && written.count > 1
        if together, syncfs(written[0].descriptor) != 0 {
            let reason = "syncfs failed: \(APNsFileWriter.errnoText())"
            abandon()
            throw APNsWriteError(path: directory, reason: reason)
        }
        for index in written.indices {
            var failure: String?
            if synchronizes, !together, fsync(written[index].descriptor) != 0 { failure = "fsync failed: \(APNsFileWriter.errnoText())" }
            if close(written[index].descriptor) != 0, failure == nil { failure = "close failed: \(APNsFileWriter.errnoText())" }
            written[index].descriptor = -1
            if let failure {
                abandon()
                throw APNsWriteError(path: written[index].path, reason: failure)
            }
        }
        for (offset, file) in written.enumerated() where rename(file.temporary, file.path) != 0 {
            let reason = "rename failed: \(APNsFileWriter.errnoText())"
            for rest in written[offset...] { unlink(rest.temporary) }
            throw APNsWriteError(path: file.path, reason: reason)
        }
        return written.map(\.path)
    }

    /// Makes the renames done so far durable (best effort): call it once after a batch of writes.
    package func synchronizeDirectory() {
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
