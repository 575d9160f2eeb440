@_spi(Inlining) import LandmarkNearCore

/// A trigonometry-free upper bound on the geodesic distance between two nearby points, for
/// the engine's per-fix "is the device still within its cache?" test (the hot path: a
/// million fixes a second, most of them far from any favourite).
///
/// The geodesic is no longer than the path along the first point's parallel, then along the
/// meridian. Every radius of curvature of WGS84 is at most a²/b (6,399,593.63 m, at the
/// poles), and cos φ is 1-Lipschitz, so cos φ₁ <= cos φ₂ + |φ₁ − φ₂|. Hence
/// distance <= a²/b · (|Δφ| + (cos φ₂ + |Δφ|) · |Δλ|), all in radians.
enum CacheBound {
    static let maximumRadiusOfCurvature = 6_399_593.6259 * (1 + 1e-9)

    static func distanceUpperBound(from a: Coordinate, to b: Coordinate, cosineOfCenterLatitude: Double) -> Double {
        let degrees = Double.pi / 180
        let latitudeDelta = abs(a.latitude - b.latitude) * degrees
        var longitudeDelta = abs(a.longitude - b.longitude)
        if longitudeDelta > 180 { longitudeDelta = 360 - longitudeDelta }
        let cosineBound = min(1, cosineOfCenterLatitude + latitudeDelta)
        return maximumRadiusOfCurvature * (latitudeDelta + cosineBound * longitudeDelta * degrees)
    }
}
