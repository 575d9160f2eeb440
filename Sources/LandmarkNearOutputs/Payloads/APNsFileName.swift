@_spi(Inlining) import LandmarkNearCore

/// The `.apns` file name for one notification: deterministic, only `[A-Za-z0-9._-]`, at most
/// 255 bytes, never `.`/`..`/hidden, and distinct for distinct (device, landmark id, fix).
///
///     APNsFileName.make(device: "d1", landmarkID: 1002, time: Timestamp(rfc3339: "2026-05-01T12:00:02Z"), fixNumber: 7)
///     // "d1-1002-20260501T120002Z.apns"
///     APNsFileName.make(device: "phone-1", landmarkID: 1002, time: nil, fixNumber: 7)
///     // "phone-1-1002-fix-7.apns"
///     APNsFileName.make(device: "a/b", landmarkID: 1002, time: nil, fixNumber: 7)
///     // "a_b-h<16 hex>-1002-fix-7.apns"
///
/// Layout: `DEVICE-[hHASH-]LANDMARK-FIX.apns`. DEVICE may hold `-` (SPEC 6 allows it, and
/// `phone-1` is how people name phones), so a name reads from the right:
/// - FIX is the last field when it is a time — `20260501T120002Z` (with `.5` before the `Z`
///   when it has a fraction; `e<seconds>[.<nanos>]` outside the years 0...9999), never all
///   digits — or the last two, `fix-<n>`, when it is a number (the fix has no time);
/// - before it, LANDMARK: the id, `1002`, or `n5` for -5;
/// - before that, `h` and 16 hex digits is the hash, and the rest is the sanitized device; anything
///   else is all device.
/// The device is sanitized — each character outside `[A-Za-z0-9._-]` becomes `_`, a leading
/// `.` (hidden) or `-` (read as an option by `rm *`) too, the name is cut to 128 bytes, an empty
/// one is `_`, and a `-` that would make the name end in `-h<16 hex>` becomes `_` (it would read
/// as the hash) — and used as is when that changed nothing; otherwise the sanitized name is
/// followed by `-h` and the FNV-1a-64 hash of the raw name. So a name reads back to one
/// (device or sanitized device + hash, landmark, fix), and devices "a/b", "a_b", "x-1001" and
/// "x-h0123456789abcdef" all get names of their own.
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

    /// The device as it appears in the name, hash included when sanitizing changed it.
    static func devicePart(_ device: String) -> String {
        let sanitized = sanitize(device)
        return sanitized == device ? device : sanitized + "-h" + FNV1a.hex(device)
    }

    /// The device with every character the rule does not keep replaced (see the type's comment).
    static func sanitize(_ device: String) -> String {
        var sanitized = ""
        for scalar in device.unicodeScalars {
            if sanitized.utf8.count >= maximumDeviceBytes { break }
            let leads = sanitized.isEmpty && (scalar == "." || scalar == "-")
            if isKept(scalar) && !leads {
                sanitized.unicodeScalars.append(scalar)
            } else {
                sanitized += "_"
            }
        }
        if sanitized.isEmpty { sanitized = "_" }
        var bytes = Array(sanitized.utf8)
        if endsLikeHash(bytes) {
            bytes[bytes.count - hashFieldLength - 1] = UInt8(ascii: "_")
            sanitized = String(decoding: bytes, as: UTF8.self)
        }
        return sanitized
    }

    /// `h` and 16 hex digits.
    private static let hashFieldLength = 17

    /// Whether `bytes` end in `-h` and 16 lower-case hex digits: the hash field, read from the right.
    private static func endsLikeHash(_ bytes: [UInt8]) -> Bool {
        guard bytes.count > hashFieldLength else { return false }
        let field = bytes.suffix(hashFieldLength)
        guard bytes[bytes.count - hashFieldLength - 1] == UInt8(ascii: "-"), field.first == UInt8(ascii: "h") else { return false }
        return field.dropFirst().allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// Characters a device name keeps: `[A-Za-z0-9._-]`.
    private static func isKept(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x2E, 0x5F, 0x2D: return true
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
