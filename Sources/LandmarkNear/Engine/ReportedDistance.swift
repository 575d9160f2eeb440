/// A distance as events report it (`distanceMeters`, SPEC §5): metres rounded to the
/// millimetre. The engine owns it because it decides, per event, whether a short-line
/// measure rounds as `geod_inverse`'s distance would; event lines, the map page and its
/// GeoJSON write what it gives.
///
///     ReportedDistance.millimetres(8022.21549)   // 8022.215
enum ReportedDistance {
    static func millimetres(_ metres: Double) -> Double {
        (metres * 1000).rounded() / 1000
    }
}
