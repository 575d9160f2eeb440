/// A distance as events report it (`distanceMeters`, docs/reference/output.md): metres rounded to the
/// millimetre. The engine owns it because it decides, per event, whether a short-line
/// measure rounds as `geod_inverse`'s distance would; event lines, the map page and its
/// GeoJSON write what it gives.
///
///     ReportedDistance.millimetres(8022.21549)   // 8022.215
package enum ReportedDistance {
    package static func millimetres(_ metres: Double) -> Double {
        (metres * 1000).rounded() / 1000
    }

    /// The same rounding as a count of millimetres, for writing digit by digit:
    /// `millimetres(m) == Double(wholeMillimetres(m)!) / 1000`. nil below 0 and from
    /// 10^15 mm (a million km, past any distance on Earth) on, and when not finite.
    ///
    ///     ReportedDistance.wholeMillimetres(8022.21549)   // 8022215
    package static func wholeMillimetres(_ metres: Double) -> Int64? {
        let rounded = (metres * 1000).rounded()
        guard rounded >= 0, rounded < 1e15 else { return nil }
        return Int64(rounded)
    }
}
