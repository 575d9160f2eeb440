import CCrypt

#if canImport(Glibc)
import Glibc
#endif

/// crypt(3) password hashes through libxcrypt: `verify` checks a password against a stored
/// hash (yescrypt `$y$`, bcrypt `$2b$`, SHA-crypt `$6$`, ...), `make` hashes a new one with
/// yescrypt and a random salt.
///
///     let hash = try PasswordHash.make(password: "s3cret")    // "$y$j9T$..."
///     PasswordHash.verify(password: "s3cret", hash: hash)      // true
package enum PasswordHash {
    /// Whether `password` hashes to `hash`; the comparison takes the same time wherever the
    /// two differ.
    package static func verify(password: [UInt8], hash: String) -> Bool {
        guard let computed = compute(password: password, setting: hash) else { return false }
        return ConstantTime.equal(Array(computed.utf8), Array(hash.utf8))
    }

    /// A new yescrypt hash of `password`.
    package static func make(password: [UInt8]) throws(ServerError) -> String {
        var setting = [CChar](repeating: 0, count: Int(CRYPT_GENSALT_OUTPUT_SIZE))
        // A null random-bytes argument lets libxcrypt take the salt from the system's entropy.
        guard crypt_gensalt_rn("$y$", 0, nil, 0, &setting, Int32(setting.count)) != nil else {
            throw .io("cannot make a yescrypt salt: \(String(cString: strerror(errno)))")
        }
        let settingText = String(decoding: setting.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let hash = compute(password: password, setting: settingText) else {
            throw .io("crypt(3) refused the password")
        }
        return hash
    }

    /// crypt(3) with an explicit setting (`$6$salt$` for SHA-512 crypt, ...), for tests.
    static func testHash(password: [UInt8], setting: String) -> String? {
        compute(password: password, setting: setting)
    }

    /// crypt_rn's output, or nil when it fails (an unknown or malformed setting).
    private static func compute(password: [UInt8], setting: String) -> String? {
        // crypt(3) reads a C string: a password with a NUL byte cannot be hashed as written.
        guard !password.contains(0) else { return nil }
        let data = UnsafeMutablePointer<crypt_data>.allocate(capacity: 1)
        defer {
            // The work area holds key material: wipe it before giving it back.
            memset(data, 0, MemoryLayout<crypt_data>.size)
            data.deallocate()
        }
        memset(data, 0, MemoryLayout<crypt_data>.size)
        let phrase = password.map { CChar(bitPattern: $0) } + [0]
        guard let result = crypt_rn(phrase, setting, data, Int32(MemoryLayout<crypt_data>.size)) else { return nil }
        // Failures may also come back as a string starting with '*'.
        if result.pointee == CChar(UInt8(ascii: "*")) { return nil }
        return String(cString: result)
    }
}

/// Comparisons whose time does not depend on where the inputs differ.
package enum ConstantTime {
    package static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        var difference = UInt8(truncatingIfNeeded: a.count ^ b.count)
        let count = max(a.count, b.count)
        for i in 0..<count {
            let x = i < a.count ? a[i] : 0
            let y = i < b.count ? b[i] : 0
            difference |= x ^ y
        }
        return difference == 0 && a.count == b.count
    }
}
