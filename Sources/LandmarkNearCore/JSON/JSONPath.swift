/// JSON paths for messages: `$.aps.badge`, `$["Simulator Target Bundle"]`, `$.aps.alert.loc-args[1]`.
///
///     JSONPath.member("badge", of: JSONPath.member("aps", of: JSONPath.root))   // "$.aps.badge"
package enum JSONPath {
    package static let root = "$"

    package static func member(_ key: String, of path: String) -> String {
        let plain =
            !key.isEmpty
            && key.unicodeScalars.allSatisfy {
                switch $0.value {
                case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x5F, 0x2D: return true
                default: return false
                }
            }
        return plain ? path + "." + key : path + "[" + JSONWriter.quoted(key) + "]"
    }

    package static func element(_ index: Int, of path: String) -> String {
        path + "[\(index)]"
    }

    /// A short rendering of a value for "got ..." in messages (at most about 40 characters).
    package static func excerpt(_ value: JSONValue) -> String {
        // JSON has no infinity: a literal such as 1e400 parses to one, which would print as null.
        if case .number(let number) = value, !number.isFinite { return "a number beyond ±1.8e308" }
        let text = JSONWriter.serialize(value)
        guard text.count > 40 else { return text }
        return String(text.prefix(37)) + "..."
    }
}
