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
