/// A record that could not be read (docs/reference/fixes.md): bad JSON, a bad number, a missing or
/// out-of-range coordinate, a bad checksum, ... The stream goes on after it.
public typealias FixReadIssue = LineIssue
