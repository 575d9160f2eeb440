/// What the engine will look up for a record before it comes: its fix's device hash and
/// coordinate, copied out of the record so that a hint costs no retain (the fix's device name
/// is a `String`, which reading it out of a `FixRecord` retains and releases; measured to
/// matter, see Benchmarks/LOG.md).
///
///     let hints = records.map(FixLookahead.init)
///     engine.prefetchDevices(of: hints[8..<12])
///
/// A record that is not a fix, or a fix whose reader did not hash its device, hints nothing.
@_spi(Inlining) public struct FixLookahead: Sendable {
    /// `Fix.deviceHash`; 0 for no hint.
    @_spi(Inlining) public let deviceHash: UInt64
    @_spi(Inlining) public let coordinate: Coordinate

    @inlinable
    @_spi(Inlining) public init(_ record: FixRecord) {
        if case .fix(let fix, _) = record {
            deviceHash = fix.deviceHash
            coordinate = fix.coordinate
        } else {
            deviceHash = 0
            coordinate = Coordinate(latitude: .nan, longitude: .nan)
        }
    }
}
