/// Why `watch` stopped early, with the sysexits status the CLI should use.
public enum WatchError: Error, Sendable, CustomStringConvertible {
    /// An input file does not exist (66).
    case missingInput(String)
    /// Reading input or writing output failed (74).
    case io(String)
    /// `--strict` and an unreadable record (65).
    case badRecord(FixReadIssue)
    /// The `--state` database failed.
    case state(StateError)
    /// stdout was closed by its reader (`| head -1`): not a failure, the run just ends.
    case outputClosed

    public var description: String {
        switch self {
        case .missingInput(let message), .io(let message): return message
        case .badRecord(let issue): return issue.description + " (stopped: --strict)"
        case .state(let error): return "--state \(error.description)"
        case .outputClosed: return "stdout was closed"
        }
    }
}
