/// Turns one line of a line-based format (NDJSON, CSV, NMEA) into a fix. Decoders keep state
/// across lines where a format needs it (CSV's header, NMEA's latest RMC date).
protocol LineDecoder: AnyObject {
    /// Decodes `line` (without its line ending; never blank, never a `#` comment).
    func decode(_ line: UnsafeBufferPointer<UInt8>) -> LineOutcome
}

enum LineOutcome {
    case fix(Fix)
    /// Not a fix, and not an error (another gpsd class, an NMEA GSV sentence, ...).
    case skip
    /// A record that cannot be read, and why.
    case invalid(String)
}

extension LineOutcome {
    init(_ outcome: FixFields.Outcome) {
        switch outcome {
        case .fix(let fix): self = .fix(fix)
        case .skip: self = .skip
        case .invalid(let reason): self = .invalid(reason)
        }
    }
}
