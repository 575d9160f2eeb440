/// One finding of `PayloadValidator`: where (a JSON path such as `$.aps.badge`) and what.
///
///     PayloadProblem(path: "$.aps.badge", message: "must be a non-negative integer, got \"3\"").description
///     // "$.aps.badge: must be a non-negative integer, got \"3\""
public struct PayloadProblem: Sendable, Equatable, CustomStringConvertible {
    public enum Severity: String, Sendable {
        /// The payload would be refused.
        case error
        /// Accepted, but probably not what was meant (an unknown `aps` key).
        case warning
    }

    public var path: String
    public var message: String
    public var severity: Severity

    public init(path: String, message: String, severity: Severity = .error) {
        self.path = path
        self.message = message
        self.severity = severity
    }

    public var isError: Bool { severity == .error }

    public var description: String {
        severity == .warning ? "warning: \(path): \(message)" : "\(path): \(message)"
    }
}

/// JSON paths for messages: `$.aps.badge`, `$["Simulator Target Bundle"]`, `$.aps.alert.loc-args[1]`.
public enum JSONPath {
    public static let root = "$"

    public static func member(_ key: String, of path: String) -> String {
        let plain = !key.isEmpty && key.unicodeScalars.allSatisfy {
            switch $0.value {
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x5F, 0x2D: return true
            default: return false
            }
        }
        return plain ? path + "." + key : path + "[" + JSONWriter.quoted(key) + "]"
    }

    public static func element(_ index: Int, of path: String) -> String {
        path + "[\(index)]"
    }

    /// A short rendering of a value for "got ..." in messages (at most about 40 characters).
    public static func excerpt(_ value: JSONValue) -> String {
        let text = JSONWriter.serialize(value)
        guard text.count > 40 else { return text }
        return String(text.prefix(37)) + "..."
    }
}
