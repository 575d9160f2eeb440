import Foundation

/// The users of `serve --users FILE`: a JSON object, user -> `{"password": "<crypt(3) hash>",
/// "devices": ["phone", ...] or "*"}`. Their devices are named `USER/DEVICE` in the engine.
///
///     let users = try ServerUsers.load(path: "users.json")
///     users["alice"]?.owns("phone")   // true
package struct ServerUsers: Sendable {
    package struct User: Sendable {
        package var name: String
        package var passwordHash: String
        /// nil: every device ("*").
        package var devices: Set<String>?

        package func owns(_ device: String) -> Bool { devices?.contains(device) ?? true }
    }

    package var byName: [String: User]

    package subscript(name: String) -> User? { byName[name] }

    package static func load(path: String) throws(ServerError) -> ServerUsers {
        guard FileManager.default.fileExists(atPath: path) else {
            throw .missingInput("--users \(path): no such file")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .io("--users \(path): cannot be read")
        }
        return try parse(Array(data), source: path)
    }

    package static func parse(_ bytes: [UInt8], source: String) throws(ServerError) -> ServerUsers {
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes, maximumDepth: 8)
        } catch {
            throw .badData("--users \(source): \(error.description)")
        }
        guard case .object(let object) = value else {
            throw .badData("--users \(source): expected a JSON object of users, found \(value.typeDescription)")
        }
        var users: [String: User] = [:]
        for (name, entry) in object.members {
            let shown = JSONWriter.quoted(name)
            guard !name.isEmpty, !name.contains(":"), !name.contains("/") else {
                throw .badData("--users \(source): user \(shown): a name must be non-empty, without ':' or '/'")
            }
            guard case .object(let fields) = entry else {
                throw .badData("--users \(source): user \(shown) is \(entry.typeDescription), not an object")
            }
            guard let hash = fields["password"]?.stringValue, hash.hasPrefix("$") else {
                throw .badData("--users \(source): user \(shown): \"password\" must be a crypt(3) hash such as \"$y$...\" (make one with 'landmark-near hash-password')")
            }
            var devices: Set<String>?
            switch fields["devices"] {
            case .string("*")?: devices = nil
            case .array(let list)?:
                var names = Set<String>()
                for item in list {
                    guard let device = item.stringValue, !device.isEmpty else {
                        throw .badData("--users \(source): user \(shown): \"devices\" must list device names (strings) or be \"*\"")
                    }
                    names.insert(device)
                }
                devices = names
            default:
                throw .badData("--users \(source): user \(shown): \"devices\" must be an array of names or \"*\"")
            }
            users[name] = User(name: name, passwordHash: hash, devices: devices)
        }
        return ServerUsers(byName: users)
    }
}
