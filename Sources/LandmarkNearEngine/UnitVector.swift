@_spi(Inlining) import LandmarkNearCore
@_spi(Inlining) import LandmarkNearGeodesy

#if canImport(Glibc)
import Glibc
#endif

/// A point on the unit sphere, used for cheap, conservative distance bounds on the engine's
/// hot path (one dot product instead of a geodesic inverse).
///
/// Mapping WGS84 (φ, λ) to the sphere of mean radius R0 = 6,371,008.8 m scales lengths by
/// between 0.9944 (meridian radius at the equator) and 1.0045 (radius of curvature at the
/// poles), so a geodesic distance lies within ±1% of the spherical one. Every decision that
/// the bound cannot settle with that margin is made with the exact geodesic.
struct UnitVector: Sendable {
    var x: Double
    var y: Double
    var z: Double

    static let meanRadius = 6_371_008.8
    /// Safety factor between spherical and geodesic distances (the true bound is 0.56%).
    static let margin = 0.01

    /// With `DegreeTrigonometry.sinCos`, within a few units in the last place of the C
    /// library's sines and cosines, which the 1 % margin of every bound made with these vectors
    /// dwarfs; the C library's four calls of `sin` and `cos` are measured to matter on the
    /// engine's thread (see Benchmarks/LOG.md).
    init(_ coordinate: Coordinate) {
        let (sinPhi, cosPhi) = DegreeTrigonometry.sinCos(degrees: coordinate.latitude)
        let (sinLambda, cosLambda) = DegreeTrigonometry.sinCos(degrees: coordinate.longitude)
        x = cosPhi * cosLambda
        y = cosPhi * sinLambda
        z = sinPhi
    }

    /// Squared chord length between two unit vectors.
    @inline(__always)
    func squaredChord(to other: UnitVector) -> Double {
        let dx = x - other.x
        let dy = y - other.y
        let dz = z - other.z
        return dx * dx + dy * dy + dz * dz
    }

    /// The squared chord of a spherical distance (metres on the mean sphere).
    static func squaredChord(forSphericalDistance distance: Double) -> Double {
        let angle = min(distance / meanRadius, .pi)
        let chord = 2 * sin(angle / 2)
        return chord * chord
    }

    /// Squared chord below which the geodesic distance is surely <= `distance`.
    static func squaredChord(surelyWithin distance: Double) -> Double {
        squaredChord(forSphericalDistance: distance / (1 + margin))
    }

    /// Squared chord above which the geodesic distance is surely > `distance`.
    static func squaredChord(surelyBeyond distance: Double) -> Double {
        distance / (1 - margin) >= .pi * meanRadius ? .infinity : squaredChord(forSphericalDistance: distance / (1 - margin))
    }
}
