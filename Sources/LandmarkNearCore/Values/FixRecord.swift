/// One record read from a fix input: a fix with its 1-based line number, or a record that could
/// not be read.
///
///     var events: [ProximityEvent] = []
///     while let record = try reader.next() {
///         switch record {
///         case .fix(let fix, _): engine.process(fix, into: &events)
///         case .invalid(let issue): print(issue)   // "<stdin>:3: latitude 91.0 is outside [-90, 90]"
///         }
///     }
public enum FixRecord: Sendable, Equatable {
    case fix(Fix, line: Int)
    case invalid(FixReadIssue)
}
