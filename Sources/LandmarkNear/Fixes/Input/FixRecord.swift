/// One record read from a fix input: a fix with its 1-based line number, or a record that could
/// not be read.
///
///     while let record = try reader.next() {
///         switch record {
///         case .fix(let fix, _): engine.process(fix)
///         case .invalid(let issue): standardError.write("\(issue)\n")
///         }
///     }
public enum FixRecord: Sendable, Equatable {
    case fix(Fix, line: Int)
    case invalid(FixReadIssue)
}
