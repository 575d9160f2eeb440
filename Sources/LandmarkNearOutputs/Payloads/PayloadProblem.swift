/// One finding of `PayloadValidator`: where (a JSON path such as `$.aps.badge`) and what.
///
///     PayloadProblem(path: "$.aps.badge", message: "must be a non-negative integer, got \"3\"").description
///     // "$.aps.badge: must be a non-negative integer, got \"3\""
package struct PayloadProblem: Sendable, Equatable, CustomStringConvertible {
    package enum Severity: String, Sendable {
        /// The payload would be refused.
        case error
        /// Accepted, but probably not what was meant (an unknown `aps` key).
        case warning
    }

    package var path: String
    package var message: String
    package var severity: Severity

    package init(path: String, message: String, severity: Severity = .error) {
        self.path = path
        self.message = message
        self.severity = severity
    }

    package var isError: Bool { severity == .error }

    package var description: String {
        severity == .warning ? "warning: \(path): \(message)" : "\(path): \(message)"
    }
}
