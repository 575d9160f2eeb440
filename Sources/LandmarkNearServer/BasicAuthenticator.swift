import Foundation
import Synchronization

/// HTTP basic authentication against `ServerUsers` (RFC 7617). A password is checked with
/// crypt(3) once; after that the same user's same password is recognised by a constant-time
/// comparison, so a phone posting every few seconds does not cost a yescrypt each time.
/// Unknown users cost a hash computation too, so timing does not tell which users exist.
///
///     switch authenticator.authenticate(request.header("Authorization")) {
///     case .user(let user): ...
///     case .denied: return .text(401, ...)
///     }
package final class BasicAuthenticator: Sendable {
    package enum Outcome: Sendable {
        case user(ServerUsers.User)
        case denied
    }

    private let users: Mutex<ServerUsers>
    /// The last password that verified, per user.
    private let verified = Mutex<[String: [UInt8]]>([:])
    /// Hashed for unknown users, so that they take as long as known ones.
    private let decoyHash: String

    package init(users: ServerUsers) {
        self.users = Mutex(users)
        decoyHash = (try? PasswordHash.make(password: Array("decoy".utf8))) ?? "$y$j9T$decoy$"
    }

    /// Replaces the users (SIGHUP); remembered passwords are forgotten.
    package func replace(_ newUsers: ServerUsers) {
        users.withLock { $0 = newUsers }
        verified.withLock { $0.removeAll() }
    }

    package func authenticate(_ header: String?) -> Outcome {
        guard let (name, password) = Self.credentials(header) else { return .denied }
        guard let user = users.withLock({ $0[name] }) else {
            _ = PasswordHash.verify(password: password, hash: decoyHash)
            return .denied
        }
        if let known = verified.withLock({ $0[name] }), ConstantTime.equal(known, password) {
            return .user(user)
        }
        guard PasswordHash.verify(password: password, hash: user.passwordHash) else { return .denied }
        verified.withLock { $0[name] = password }
        return .user(user)
    }

    /// `Basic base64(user:password)` split at the first colon.
    static func credentials(_ header: String?) -> (String, [UInt8])? {
        guard let header else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "basic",
            let decoded = Data(base64Encoded: String(parts[1]).trimmingCharacters(in: .whitespaces))
        else { return nil }
        let bytes = Array(decoded)
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")),
            let name = String(validating: bytes[..<colon], as: UTF8.self)
        else { return nil }
        return (name, Array(bytes[(colon + 1)...]))
    }
}
