/// A problem at one line of an input: an unreadable fix record (docs/reference/fixes.md), a bad line of a
/// `Localizable.strings` file. Printed as `<source>:<line>: <reason>`.
///
///     LineIssue(source: "trace.ndjson", line: 7, reason: "latitude 91.0 is outside [-90, 90]")
///         .description   // "trace.ndjson:7: latitude 91.0 is outside [-90, 90]"
public struct LineIssue: LandmarkNearError, Sendable, Equatable {
    /// The file path as given, or `<stdin>`.
    public var source: String
    /// 1-based line number.
    public var line: Int
    public var reason: String

    package init(source: String, line: Int, reason: String) {
        self.source = source
        self.line = line
        self.reason = reason
    }

    /// Always `.badData`: the input was read, this line of it is not acceptable.
    public var kind: ErrorKind { .badData }

    /// `<source>:<line>: <reason>`
    public var description: String { "\(source):\(line): \(reason)" }
}
