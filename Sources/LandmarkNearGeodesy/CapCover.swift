import Foundation
@_spi(Inlining) import LandmarkNearCore

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
@_spi(Inlining) public struct CapCover: Sendable, Hashable {
    public var first: GeoBox
    public var second: GeoBox?

    public var boxes: [GeoBox] { second.map { [first, $0] } ?? [first] }

    /// - Parameters:
    ///   - center: a valid coordinate.
    ///   - radius: metres, >= 0 (infinity covers the world).
    public init(center: Coordinate, radius: Double) {
        // The sine and cosine a query's Earth-centred point has (`DegreeTrigonometry`).
        let (sine, cosine) = DegreeTrigonometry.sinCos(degrees: center.latitude)
        self.init(center: center, radius: radius, latitudeSine: sine, latitudeCosine: cosine)
    }

    /// `init(center:radius:)` with the sine and cosine of the centre's latitude given (a query
    /// has them from its Earth-centred point). A small cap then costs no trigonometry: the
    /// cosine of the band's farthest latitude |φ| + Δφ is cos φ cos Δφ − |sin φ| sin Δφ, and
    /// asin of a small ratio is its series (no call to the C library's cos and asin).
    public init(center: Coordinate, radius: Double, latitudeSine: Double, latitudeCosine: Double) {
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
        let axisDistance =
            EllipsoidConstants.equatorialRadius
            * Self.cosine(ofLatitude: farthestFromEquator, beyond: dLat / degrees, latitudeSine, latitudeCosine)
            * (1 - 1e-12)
        let dLon = grown < axisDistance ? Self.arcsine(grown / axisDistance) * degrees * (1 + 1e-9) + 1e-9 : 180
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

    /// cos of `latitude` (degrees) = |φ| + `step` (radians), from φ's sine and cosine by the
    /// angle sum with the series of cos and sin of the step, where the step is under 0.05 rad
    /// (`DegreeTrigonometry.sinCos(smallRadians:)`) and the result at least 0.01 (so that its
    /// rounding, a few units of 1e-16, stays far inside the caller's 1e-12 shrink); else `cos`.
    @inlinable @inline(__always)
    static func cosine(ofLatitude latitude: Double, beyond step: Double, _ sine: Double, _ cosine: Double) -> Double {
        if step <= 0.05 {
            let (sinStep, cosStep) = DegreeTrigonometry.sinCos(smallRadians: step)
            let sum = cosine * cosStep - abs(sine) * sinStep
            if sum >= 0.01 { return sum }
        }
        return cos(latitude * (Double.pi / 180))
    }

    /// asin x for 0 <= x <= 1: its series x (1 + x²/6 + 3x⁴/40 + 5x⁶/112 + 35x⁸/1152) up to
    /// x = 0.05, where the terms left out are below 1e-14 of it (and make it smaller: the
    /// caller's 1e-9 growth covers that), else `asin`.
    @inlinable @inline(__always)
    static func arcsine(_ x: Double) -> Double {
        guard x <= 0.05 else { return asin(x) }
        let x2 = x * x
        return x * (1 + x2 * (1.0 / 6 + x2 * (3.0 / 40 + x2 * (5.0 / 112 + x2 * (35.0 / 1152)))))
    }
}
