/// Why `watch` stopped early, with the sysexits status the CLI should use.
public enum WatchError: Error, Sendable, CustomStringConvertible {
    /// An input file does not exist (66).
    case missingInput(String)
    /// Reading input or writing output failed (74).
    case io(String)
    /// `--strict` and an unreadable record (65).
    case badRecord(FixReadIssue)

    public var description: String {
        switch self {
        case .missingInput(let message), .io(let message): return message
        case .badRecord(let issue): return issue.description + " (stopped: --strict)"
        }
    }
}
