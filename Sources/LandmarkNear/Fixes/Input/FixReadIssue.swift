/// A record that could not be read (SPEC §3): bad JSON, a bad number, a missing or
/// out-of-range coordinate, a bad checksum, ... The stream goes on after it.
///
///     FixReadIssue(source: "trace.ndjson", line: 7, reason: "latitude 91.0 is outside [-90, 90]")
///         .description   // "trace.ndjson:7: latitude 91.0 is outside [-90, 90]"
public struct FixReadIssue: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file path as given, or `<stdin>`.
    public var source: String
    /// 1-based line number of the record in the input.
    public var line: Int
    public var reason: String

    public init(source: String, line: Int, reason: String) {
        self.source = source
        self.line = line
        self.reason = reason
    }

    /// `<source>:<line>: <reason>`
    public var description: String { "\(source):\(line): \(reason)" }
}
