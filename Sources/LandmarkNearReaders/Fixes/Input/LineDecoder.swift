@_spi(Inlining) import LandmarkNearCore

/// Turns one line of a line-based format (NDJSON, CSV, NMEA) into a fix. Decoders keep state
/// across lines where a format needs it (CSV's header, NMEA's latest RMC date).
protocol LineDecoder: AnyObject {
    /// Decodes `line` (without its line ending; never blank, never a `#` comment). With
    /// `notingZonelessTime`, a fix whose time has no zone comes with that time's text; formats
    /// whose times are UTC by definition (NMEA) never give one.
    func decode(_ line: UnsafeBufferPointer<UInt8>, notingZonelessTime: Bool) -> LineOutcome
    /// The format's words for "nothing was a fix" (`no NMEA sentence had a fix`), and what to
    /// say when no line was skipped either (a CSV with only its header).
    var noFixPrefix: String { get }
    func noFixExplanation(linesDecoded: Int) -> String?
}

package enum LineOutcome {
    case fix(Fix)
    /// A fix whose time has no zone, with that time's text, when the decoder was asked to note
    /// one (a case apart, so that the usual one stays as it was: measured, a text in `.fix`
    /// cost `watch` 4 %).
    case fixWithZonelessTime(Fix, [UInt8])
    /// Not a fix, and not an error (another gpsd class, an NMEA GSV sentence, ...), of a kind
    /// counted for the "no fix" warning; nil for structure (a CSV header).
    case skip(String?)
    /// A record that cannot be read, and why.
    case invalid(String)
    /// The input cannot be read as this format at all (a CSV whose header names no coordinate
    /// columns): one issue saying why and what to do, and the rest of the input is not read —
    /// a line per row would bury the reason under thousands of copies of it.
    case unusable(String)
}

extension LineOutcome {
    /// What `fields` describe; a fix whose time has no zone comes as such with
    /// `notingZonelessTime` (its time is looked at only when the fix is one). Inlined into the
    /// decoders' loops: a call here cost `watch` a retain and release of `devices` a fix.
    @inline(__always)
    init(_ fields: FixFields, devices: DeviceNames, notingZonelessTime: Bool) {
        let outcome = fields.interpret(devices: devices)
        if notingZonelessTime, let text = fields.zonelessTimeText(), case .fix(let fix) = outcome {
            self = .fixWithZonelessTime(fix, Array(text))
            return
        }
        self.init(outcome)
    }

    init(_ outcome: FixFields.Outcome) {
        switch outcome {
        case .fix(let fix): self = .fix(fix)
        case .skip(let kind): self = .skip(kind)
        case .invalid(let reason): self = .invalid(reason)
        }
    }
}
