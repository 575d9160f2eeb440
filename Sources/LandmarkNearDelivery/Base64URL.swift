import Foundation

/// RFC 4648 §5 base64url without padding, as JWTs (RFC 7515) write their parts.
///
///     Base64URL.encode(Array("{\"alg\":\"ES256\"}".utf8))   // "eyJhbGciOiJFUzI1NiJ9"
enum Base64URL {
    static func encode(_ bytes: [UInt8]) -> String {
        var text = Data(bytes).base64EncodedString()
        while text.last == "=" { text.removeLast() }
        return String(text.map { $0 == "+" ? "-" : $0 == "/" ? "_" : $0 })
    }
}
