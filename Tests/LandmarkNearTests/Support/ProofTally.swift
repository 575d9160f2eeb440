import Testing

/// The verdicts of a randomized test of a proof against GEOS: every case the proof accepts must
/// be one GEOS accepts (checked as it is met), and both verdicts must be met often, or the test
/// could not fail (a generator of easy cases only would test nothing).
struct ProofTally {
    private(set) var proved = 0
    private(set) var refused = 0

    /// Counts a verdict; a proved case is checked with `geosAccepts`.
    mutating func count(
        proved isProved: Bool, geosAccepts: @autoclosure () -> Bool, _ what: @autoclosure () -> String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        if isProved {
            proved += 1
            #expect(geosAccepts(), "proved but GEOS refuses: \(what())", sourceLocation: sourceLocation)
        } else {
            refused += 1
        }
    }

    /// Both verdicts met more than 50 times.
    func expectBothMet(sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(proved > 50 && refused > 50, "\(proved) proved, \(refused) left to GEOS", sourceLocation: sourceLocation)
    }
}
