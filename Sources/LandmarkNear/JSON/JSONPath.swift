/// JSON paths for messages: `$.aps.badge`, `$["Simulator Target Bundle"]`, `$.aps.alert.loc-args[1]`.
///
///     JSONPath.member("badge", of: JSONPath.member("aps", of: JSONPath.root))   // "$.aps.badge"
enum JSONPath {
    static let root = "$"

    static func member(_ key: String, of path: String) -> String {
        let plain = !key.isEmpty && key.unicodeScalars.allSatisfy {
            switch $0.value {
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x5F, 0x2D: return true
            default: return false
            }
        }
        return plain ? path + "." + key : path + "[" + JSONWriter.quoted(key) + "]"
    }

    static func element(_ index: Int, of path: String) -> String {
        path + "[\(index)]"
    }

    /// A short rendering of a value for "got ..." in messages (at most about 40 characters).
    static func excerpt(_ value: JSONValue) -> String {
        let text = JSONWriter.serialize(value)
        guard text.count > 40 else { return text }
        return String(text.prefix(37)) + "..."
    }
}
