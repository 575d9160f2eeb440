import Foundation
import Testing

@testable import LandmarkNear

/// `ShortGeodesic` against `geod_inverse`: 100k seeded pairs worldwide in the normal suite (the
/// release-build check of 1M+ pairs is `landmark-bench distance`), each within
/// `ShortGeodesic.errorBound` of its chord, in every length class.
@Suite(.suiteTimeLimit) struct ShortGeodesicBoundTests {
    @Test func everyPairIsWithinItsBound() {
        let report = ShortGeodesicCheck.run(pairs: 100_000, seed: 11)
        for lengthClass in report.classes {
            #expect(lengthClass.pairs > 5_000, "class up to \(lengthClass.upper) m has too few pairs")
            #expect(
                lengthClass.worstShareOfBound <= 1,
                "up to \(lengthClass.upper) m: error \(lengthClass.worstError) m > bound, at \(String(describing: lengthClass.worstPair))")
        }
        #expect(report.holds)
    }

    /// The bound must not be loose to the point of meaning nothing: the short classes stay
    /// under a micrometre, far below the millimetre of reported distances.
    @Test func shortLinesAreWithinAMicrometre() {
        #expect(ShortGeodesic.errorBound(chord: 10_000) <= 1e-6)
        #expect(ShortGeodesic.errorBound(chord: 50_000) <= 1e-6)
        #expect(LandmarkIndex.tolerance(ofDistance: 100_000) <= 1e-5)
        // Beyond 100 km, Vincenty's millimetre: the SPEC's reported resolution.
        #expect(LandmarkIndex.distanceTolerance <= 1e-3)
    }

    /// `VincentyGeodesic` against `geod_inverse` on the same pairs: within its bound wherever it
    /// converges, and converging everywhere the index uses it (chords up to 10,000 km).
    @Test func vincentyIsWithinItsBound() {
        let report = ShortGeodesicCheck.run(pairs: 100_000, seed: 12)
        for lengthClass in report.classes {
            #expect(
                lengthClass.vincentyWorstError <= VincentyGeodesic.errorBound,
                "up to \(lengthClass.upper) m: Vincenty's error \(lengthClass.vincentyWorstError) m")
            #expect(lengthClass.vincentyUnconverged == 0)
        }
        #expect(report.vincentyHolds)
        // The bound is not loose to the point of meaning nothing: 10x over the worst seen.
        #expect(report.classes.map(\.vincentyWorstError).max()! * 10 <= VincentyGeodesic.errorBound)
    }

    @Test(arguments: [
        (Coordinate(latitude: 90, longitude: 0), Coordinate(latitude: -89, longitude: 0)),
        (Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 0, longitude: 90)),
        (Coordinate(latitude: 10, longitude: 179.5), Coordinate(latitude: -30, longitude: -150)),
        (Coordinate(latitude: -90, longitude: 0), Coordinate(latitude: -60, longitude: 123)),
        (Coordinate(latitude: 40.6, longitude: -73.8), Coordinate(latitude: 51.6, longitude: -0.5)),
    ])
    func vincentyAtPolesEquatorAndAntimeridian(_ a: Coordinate, _ b: Coordinate) throws {
        let exact = Geodesic.wgs84.distance(from: a, to: b)
        let vincenty = try #require(VincentyGeodesic.distance(from: a, to: b))
        #expect(abs(vincenty - exact) <= VincentyGeodesic.errorBound)
        #expect(VincentyGeodesic.distance(from: a, to: a) == 0)
    }

    @Test(arguments: [
        (Coordinate(latitude: 90, longitude: 0), Coordinate(latitude: 89.95, longitude: 137)),
        (Coordinate(latitude: -90, longitude: 10), Coordinate(latitude: -90, longitude: -170)),
        (Coordinate(latitude: 12, longitude: 179.999), Coordinate(latitude: 12.01, longitude: -179.98)),
        (Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 0, longitude: 0.7)),
        (Coordinate(latitude: 45, longitude: 7), Coordinate(latitude: 45.4, longitude: 7)),
    ])
    func polesAntimeridianAndAxes(_ a: Coordinate, _ b: Coordinate) {
        let p = EarthCenteredPoint(a)
        let q = EarthCenteredPoint(b)
        let exact = Geodesic.wgs84.distance(from: a, to: b)
        #expect(abs(ShortGeodesic.distance(from: p, to: q) - exact) <= ShortGeodesic.errorBound(chord: p.chord(to: q)))
        #expect(abs(ShortGeodesic.distance(from: q, to: p) - exact) <= ShortGeodesic.errorBound(chord: p.chord(to: q)))
    }
}
