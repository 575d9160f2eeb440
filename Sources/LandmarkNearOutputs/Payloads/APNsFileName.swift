@_spi(Inlining) import LandmarkNearCore

/// The `.apns` file name for one notification: deterministic, only `[A-Za-z0-9._-]`, at most
/// 255 bytes, never `.`/`..`/hidden, and distinct for distinct (device, landmark id, fix).
///
///     APNsFileName.make(device: "d1", landmarkID: 1002, time: Timestamp(rfc3339: "2026-05-01T12:00:02Z"), fixNumber: 7)
///     // "d1-1002-20260501T120002Z.apns"
///     APNsFileName.make(device: "a/b", landmarkID: 1002, time: nil, fixNumber: 7)
///     // "a_b-h<16 hex>-1002-fix-7.apns"
///
/// Layout: `DEVICE-[hHASH-]LANDMARK-FIX.apns`, read left to right:
/// - DEVICE never holds `-`, so the first `-` ends it. A device name made only of
///   `[A-Za-z0-9._]` (not starting with `.`, at most 128 bytes, not empty) is used as is; any other
///   name is sanitized (each other character becomes `_`, a leading `.` becomes `_`, an empty
///   name `_`, cut to 128 bytes) and followed by `-h` and the FNV-1a-64 hash of the raw name.
/// - the next field is then `h...` (the hash) or the landmark id (`1002`, or `n5` for -5),
///   which never starts with `h`;
/// - the rest is the fix: its UTC time `20260501T120002Z` (with `.5` before the `Z` when it has
///   a fraction; `e<seconds>[.<nanos>]` outside the years 0...9999), or `fix-<n>` when it has none.
/// So a name reads back to one (device or sanitized device + hash, landmark, fix), and devices
/// "a/b", "a_b" and "x-1001" all get names of their own.
package struct APNsFileName {
    /// Longest device part kept, in bytes (the whole name stays far below 255).
    static let maximumDeviceBytes = 128
    static let fileExtension = "apns"

    package static func make(device: String, landmarkID: Int, time: Timestamp?, fixNumber: Int) -> String {
        var name = devicePart(device)
        name += "-"
        name += signed(landmarkID)
        name += "-"
        if let time {
            name += timePart(time)
        } else {
            name += "fix-" + signed(fixNumber)
        }
        return name + "." + fileExtension
    }

    /// The device as it appears in the name, hash included when it was sanitized.
    static func devicePart(_ device: String) -> String {
        if isSafe(device) { return device }
        var sanitized = ""
        for scalar in device.unicodeScalars {
            if sanitized.utf8.count >= maximumDeviceBytes { break }
            if isKept(scalar) && !(sanitized.isEmpty && scalar == ".") {
                sanitized.unicodeScalars.append(scalar)
            } else {
                sanitized += "_"
            }
        }
        if sanitized.isEmpty { sanitized = "_" }
        return sanitized + "-h" + FNV1a.hex(device)
    }

    private static func isSafe(_ device: String) -> Bool {
        let utf8 = device.utf8
        guard !utf8.isEmpty, utf8.count <= maximumDeviceBytes, utf8.first != UInt8(ascii: ".") else { return false }
        return device.unicodeScalars.allSatisfy(isKept)
    }

    /// Characters a device name keeps: `[A-Za-z0-9._]` (`-` is the field separator).
    private static func isKept(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x2E, 0x5F: return true
        default: return false
        }
    }

    /// `1002` or `n5` for -5 (a `-` would read as a separator).
    private static func signed(_ value: Int) -> String {
        value < 0 ? "n" + String(value.magnitude) : String(value)
    }

    static func timePart(_ time: Timestamp) -> String {
        let text = time.rfc3339
        // Fixed-width years keep the compact form unambiguous; others use epoch seconds.
        let bytes = Array(text.utf8)
        if bytes.count >= 20, bytes[4] == UInt8(ascii: "-"), bytes.first != UInt8(ascii: "-") {
            return String(text.filter { $0 != "-" && $0 != ":" })
        }
        var epoch = "e" + signed(Int(time.seconds))
        if time.nanoseconds != 0 {
            let digits = String(time.nanoseconds)
            epoch += "." + String(repeating: "0", count: 9 - digits.count) + digits
        }
        return epoch
    }
}
