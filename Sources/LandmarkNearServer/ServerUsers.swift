@_spi(Inlining) import LandmarkNearCore

/// The users of `serve --users FILE`: a JSON object, user -> `{"password": "<crypt(3) hash>",
/// "devices": ["phone", ...] or "*", "admin": true}`. Their devices are named `USER/DEVICE` in
/// the engine. Admins may change the catalog and profiles (docs/reference/serve.md); an admin
/// needs no `devices` (none, then).
///
///     let users = try ServerUsers.load(path: "users.json")
///     users["alice"]?.owns("phone")   // true
package struct ServerUsers: Sendable {
    package struct User: Sendable {
        package var name: String
        package var passwordHash: String
        /// nil: every device ("*").
        package var devices: Set<String>?
        /// `"admin": true`: may use the endpoints that change the catalog and profiles.
        package var isAdmin = false

        package func owns(_ device: String) -> Bool { devices?.contains(device) ?? true }
    }

    package var byName: [String: User]

    package subscript(name: String) -> User? { byName[name] }

    package static func load(path: String) throws(ServerError) -> ServerUsers {
        let bytes: [UInt8]
        do {
            bytes = try InputFile.read(path: path, limit: 16 << 20, tooLarge: "a users file is at most 16 MiB")
        } catch {
            throw ServerError(kind: error.kind, setting: .users, message: error.description)
        }
        return try parse(bytes, source: path)
    }

    package static func parse(_ bytes: [UInt8], source: String) throws(ServerError) -> ServerUsers {
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes, maximumDepth: 8)
        } catch {
            throw .badData("\(source): \(error.description)", .users)
        }
        guard case .object(let object) = value else {
            throw .badData("\(source): expected a JSON object of users, found \(value.typeDescription)", .users)
        }
        var users: [String: User] = [:]
        for (name, entry) in object.members {
            let shown = JSONWriter.quoted(name)
            guard !name.isEmpty, !name.contains(":"), !name.contains("/") else {
                throw .badData("\(source): user \(shown): a name must be non-empty, without ':' or '/'", .users)
            }
            guard case .object(let fields) = entry else {
                throw .badData("\(source): user \(shown) is \(entry.typeDescription), not an object", .users)
            }
            guard let hash = fields["password"]?.stringValue, hash.hasPrefix("$") else {
                throw .badData(
                    "\(source): user \(shown): \"password\" must be a crypt(3) hash such as \"$y$...\" (make one with 'landmark-near hash-password')",
                    .users)
            }
            var isAdmin = false
            switch fields["admin"] {
            case nil, .null?: break
            case .bool(let flag)?: isAdmin = flag
            case let other?:
                throw .badData("\(source): user \(shown): \"admin\" must be true or false, not \(other.typeDescription)", .users)
            }
            var devices: Set<String>?
            switch fields["devices"] {
            case nil where isAdmin: devices = []
            case .string("*")?: devices = nil
            case .array(let list)?:
                var names = Set<String>()
                for item in list {
                    guard let device = item.stringValue, !device.isEmpty else {
                        throw .badData("\(source): user \(shown): \"devices\" must list device names (strings) or be \"*\"", .users)
                    }
                    names.insert(device)
                }
                devices = names
            default:
                throw .badData("\(source): user \(shown): \"devices\" must be an array of names or \"*\"", .users)
            }
            users[name] = User(name: name, passwordHash: hash, devices: devices, isAdmin: isAdmin)
        }
        return ServerUsers(byName: users)
    }
}
