import Foundation
import Testing

@testable import LandmarkNearChecks
@_spi(Inlining) @testable import LandmarkNearCore
@_spi(Inlining) @testable import LandmarkNearGeodesy
@testable import LandmarkNearIndex

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
        // Beyond 100 km, Vincenty's millimetre: the reported resolution (docs/reference/distance.md).
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

    /// `MidpointGeodesic` against `geod_inverse` on the same pairs: within its bound in every
    /// class up to its longest chord, 10x under it, and at most Vincenty's millimetre there (the
    /// index measures an answer with it before Vincenty).
    @Test func midpointIsWithinItsBound() {
        let report = ShortGeodesicCheck.run(pairs: 100_000, seed: 13)
        for lengthClass in report.classes where lengthClass.lower < MidpointGeodesic.longestChord {
            #expect(lengthClass.pairs > 5_000)
            #expect(
                lengthClass.midpointWorstShareOfBound <= 0.1,
                "up to \(lengthClass.upper) m: MidpointGeodesic's error \(lengthClass.midpointWorstError) m")
            #expect(MidpointGeodesic.errorBound(chord: lengthClass.upper) < VincentyGeodesic.errorBound)
        }
        #expect(report.midpointHolds)
        // It measures closer than ShortGeodesic wherever the index asks it (lines past 50 km).
        for chord in [60_000.0, 150_000, 250_000, 350_000, 900_000, 1_900_000] {
            #expect(MidpointGeodesic.errorBound(chord: chord) < ShortGeodesic.errorBound(chord: chord))
        }
    }

    @Test(arguments: [
        (Coordinate(latitude: 90, longitude: 0), Coordinate(latitude: 75, longitude: 140)),
        (Coordinate(latitude: -89.9, longitude: 10), Coordinate(latitude: -80, longitude: -170)),
        (Coordinate(latitude: 0.5, longitude: 179.9), Coordinate(latitude: -3, longitude: -172)),
        (Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 0, longitude: 15)),
        (Coordinate(latitude: 0, longitude: 30), Coordinate(latitude: 16, longitude: 30)),
        (Coordinate(latitude: 40.6, longitude: -73.8), Coordinate(latitude: 35.2, longitude: -80.9)),
        (Coordinate(latitude: 51.5, longitude: -0.1), Coordinate(latitude: 51.5, longitude: -0.1)),
    ])
    func midpointAtPolesEquatorMeridiansAndAntimeridian(_ a: Coordinate, _ b: Coordinate) throws {
        let p = EarthCenteredPoint(a)
        let q = EarthCenteredPoint(b)
        let chord = p.chord(to: q)
        try #require(chord <= MidpointGeodesic.longestChord)
        let exact = Geodesic.wgs84.distance(from: a, to: b)
        #expect(abs(MidpointGeodesic.distance(from: p, to: q, chord: chord) - exact) <= MidpointGeodesic.errorBound(chord: chord))
        #expect(abs(MidpointGeodesic.distance(from: q, to: p, chord: chord) - exact) <= MidpointGeodesic.errorBound(chord: chord))
        // The split point lies on the surface.
        let m = MidpointGeodesic.surfacePoint(between: p, q)
        let a2 = EllipsoidConstants.equatorialRadius * EllipsoidConstants.equatorialRadius
        let b2 = a2 * (1 - EllipsoidConstants.eccentricitySquared)
        #expect(abs((m.x * m.x + m.y * m.y) / a2 + m.z * m.z / b2 - 1) < 1e-14)
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
