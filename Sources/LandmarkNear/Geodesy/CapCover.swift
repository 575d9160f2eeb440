import Foundation

/// One or two longitude/latitude boxes that together hold every point within a geodesic
/// distance of a centre: a "cap box" for a spatial index in degrees. The box grows in longitude
/// with latitude, covers all longitudes when the cap holds a pole, and splits in two at ±180°.
///
/// Why it is safe (every step only makes the box larger):
/// - latitude: the distance between two parallels is the meridian arc between them, at least
///   ρ = b²/a metres per radian, so |Δφ| <= r / ρ;
/// - longitude: the chord from P to Q is at least Q's distance from the plane of P's meridian,
///   p_Q |sin Δλ| (and at least p_Q when |Δλ| > 90°), where p_Q = N cos φ_Q >= a cos φ_Q is
///   Q's distance from the axis; so |Δλ| <= asin(r / (a cos φmax)) with φmax the largest
///   |latitude| of the band.
///
///     let cover = CapCover(center: Coordinate(latitude: 10, longitude: 179.99), radius: 8046.72)
///     cover.boxes.count   // 2: [179.91, 180] and [-180, -179.93]
struct CapCover: Sendable, Hashable {
    var first: GeoBox
    var second: GeoBox?

    var boxes: [GeoBox] { second.map { [first, $0] } ?? [first] }

    /// - Parameters:
    ///   - center: a valid coordinate.
    ///   - radius: metres, >= 0 (infinity covers the world).
    init(center: Coordinate, radius: Double) {
        let degrees = 180 / Double.pi
        let grown = radius * (1 + 1e-9) + 1e-6
        let dLat = grown / EllipsoidConstants.smallestRadiusOfCurvature * degrees * (1 + 1e-9) + 1e-9
        let minLat = center.latitude - dLat
        let maxLat = center.latitude + dLat
        guard minLat > -90, maxLat < 90 else {
            first = GeoBox(minLongitude: -180, minLatitude: max(-90, minLat), maxLongitude: 180, maxLatitude: min(90, maxLat))
            second = nil
            return
        }
        let farthestFromEquator = max(abs(minLat), abs(maxLat))
        let axisDistance = EllipsoidConstants.equatorialRadius * cos(farthestFromEquator / degrees) * (1 - 1e-12)
        let dLon = grown < axisDistance ? asin(grown / axisDistance) * degrees * (1 + 1e-9) + 1e-9 : 180
        guard dLon < 180 else {
            first = GeoBox(minLongitude: -180, minLatitude: minLat, maxLongitude: 180, maxLatitude: maxLat)
            second = nil
            return
        }
        let minLon = center.longitude - dLon
        let maxLon = center.longitude + dLon
        if minLon < -180 {
            first = GeoBox(minLongitude: minLon + 360, minLatitude: minLat, maxLongitude: 180, maxLatitude: maxLat)
            second = GeoBox(minLongitude: -180, minLatitude: minLat, maxLongitude: maxLon, maxLatitude: maxLat)
        } else if maxLon > 180 {
            first = GeoBox(minLongitude: minLon, minLatitude: minLat, maxLongitude: 180, maxLatitude: maxLat)
            second = GeoBox(minLongitude: -180, minLatitude: minLat, maxLongitude: maxLon - 360, maxLatitude: maxLat)
        } else {
            first = GeoBox(minLongitude: minLon, minLatitude: minLat, maxLongitude: maxLon, maxLatitude: maxLat)
            second = nil
        }
    }
}
