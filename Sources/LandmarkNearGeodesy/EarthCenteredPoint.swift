@_spi(Inlining) import LandmarkNearCore

/// A point of the WGS84 ellipsoid's surface in Earth-centred, Earth-fixed Cartesian
/// coordinates (metres). The straight-line distance between two of them (the chord) is a cheap,
/// rigorous lower bound of their geodesic distance.
///
///     let a = EarthCenteredPoint(Coordinate(latitude: 0, longitude: 0))
///     let b = EarthCenteredPoint(Coordinate(latitude: 0, longitude: 1))
///     a.chord(to: b)   // 111319.4 m: a little under the 111319.5 m geodesic
@_spi(Inlining) public struct EarthCenteredPoint: Sendable, Hashable {
    public var x: Double
    public var y: Double
    public var z: Double

    public init(x: Double, y: Double, z: Double) {
        self.x = x
        self.y = y
        self.z = z
    }

    /// The surface point at this latitude and longitude (height 0).
    public init(_ coordinate: Coordinate) {
        self = Self.withLatitudeTrigonometry(coordinate).point
    }

    /// The point of `coordinate` and the sine and cosine of its latitude, which a cap cover
    /// around it needs too (`CapCover(center:radius:latitudeSine:latitudeCosine:)`).
    @inlinable @inline(__always)
    public static func withLatitudeTrigonometry(_ coordinate: Coordinate) -> (point: Self, sine: Double, cosine: Double) {
        let (sinPhi, cosPhi) = DegreeTrigonometry.sinCos(degrees: coordinate.latitude)
        let (sinLambda, cosLambda) = DegreeTrigonometry.sinCos(degrees: coordinate.longitude)
        let e2 = EllipsoidConstants.eccentricitySquared
        let n = EllipsoidConstants.equatorialRadius / (1 - e2 * sinPhi * sinPhi).squareRoot()
        let point = EarthCenteredPoint(x: n * cosPhi * cosLambda, y: n * cosPhi * sinLambda, z: n * (1 - e2) * sinPhi)
        return (point, sinPhi, cosPhi)
    }

    /// The squared straight-line distance to `other`, in square metres.
    public func chordSquared(to other: EarthCenteredPoint) -> Double {
        let dx = x - other.x
        let dy = y - other.y
        let dz = z - other.z
        return dx * dx + dy * dy + dz * dz
    }

    /// The straight-line distance to `other`, in metres.
    public func chord(to other: EarthCenteredPoint) -> Double {
        chordSquared(to: other).squareRoot()
    }
}

/// WGS84's defining constants and the derived ones the index's bounds use.
@_spi(Inlining) public enum EllipsoidConstants {
    /// a, metres.
    public static let equatorialRadius = 6_378_137.0
    /// f.
    static let flattening = 1 / 298.257223563
    /// b = a (1 − f), metres.
    static let polarRadius = equatorialRadius * (1 - flattening)
    /// e² = f (2 − f).
    public static let eccentricitySquared = flattening * (2 - flattening)
    /// The smallest radius of curvature anywhere on the ellipsoid: the meridian's at the
    /// equator, b²/a = a (1 − f)² ≈ 6 335 439 m. No geodesic bends more sharply than a circle of
    /// this radius, and every degree of latitude is at least this many metres × π/180 long.
    @usableFromInline static let smallestRadiusOfCurvature = equatorialRadius * (1 - flattening) * (1 - flattening)
    /// An upper bound of every geodesic distance: half a meridian is 20 003 931.46 m.
    public static let longestGeodesic = 20_003_932.0
}
