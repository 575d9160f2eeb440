import COpenSSL

/// SHA-1 and SHA-256 through OpenSSL's EVP interface (no hand-written cryptography).
///
///     OpenSSLDigest.sha256(Array("abc".utf8)).count   // 32
package enum OpenSSLDigest {
    package static func sha1(_ bytes: [UInt8]) -> [UInt8] { digest(bytes, EVP_sha1(), length: 20) }
    package static func sha256(_ bytes: [UInt8]) -> [UInt8] { digest(bytes, EVP_sha256(), length: 32) }

    private static func digest(_ bytes: [UInt8], _ type: OpaquePointer?, length: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var size: UInt32 = 0
        let ok = bytes.withUnsafeBytes { input in
            EVP_Digest(input.baseAddress, input.count, &out, &size, type, nil)
        }
        // EVP_Digest fails only when OpenSSL cannot allocate; a process in that state cannot go on.
        precondition(ok == 1 && Int(size) == length, "OpenSSL digest failed")
        return Array(out.prefix(length))
    }

    package static func hex(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 15)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
