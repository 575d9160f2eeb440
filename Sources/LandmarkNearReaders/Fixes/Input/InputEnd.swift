@_spi(Inlining) import LandmarkNearCore

/// How reading an input ended: what a pipeline asks at the end of an input, whether a
/// `FixReader` read it in line or a `FixReadAhead` on a thread of its own.
///
///     let end = InputEnd(error: nil, format: .nmea, skipped: reader.skipped)
///     end.skipped.count(where: { $0 != NMEALineDecoder.notNMEA })   // sentences without a fix
package struct InputEnd: Sendable {
    /// Thrown by `FixReader` (opening, detecting or reading); nil at the end of the input.
    package var error: InputError?
    package var format: FixFormat
    package var skipped: SkipTally
    /// `FixReader.noFixExplanation()`, asked only when the input gave no record.
    package var noFixExplanation: String?
    /// `FixReader.zonelessTime`: the first fix time without a zone, for the run's one warning.
    package var zonelessTime: ZonelessTime?

    package init(
        error: InputError?, format: FixFormat, skipped: SkipTally, noFixExplanation: String? = nil, zonelessTime: ZonelessTime? = nil
    ) {
        self.error = error
        self.format = format
        self.skipped = skipped
        self.noFixExplanation = noFixExplanation
        self.zonelessTime = zonelessTime
    }
}
