import Foundation
import Testing

@_spi(Inlining) @testable import LandmarkNearCore
@_spi(Inlining) @testable import LandmarkNearGeodesy

@Suite(.suiteTimeLimit) struct GeodesicBoundsTests {
    /// Pairs at every scale: close (metres to 100 km), far, nearly antipodal, across ±180° and at
    /// the poles; the chord bounds must hold around the computed geodesic distance.
    @Test func chordBoundsHoldEverywhere() {
        var rng = IndexTestSupport.SeededGenerator(seed: 5)
        for trial in 0..<20_000 {
            let a = IndexTestSupport.queryPoint(&rng, near: [])
            let b: Coordinate
            switch trial % 4 {
            case 0:
                b = Geodesic.wgs84.destination(
                    from: a, azimuth: Double.random(in: -180...180, using: &rng),
                    distance: Double.random(in: 0...100_000, using: &rng))
            case 1:
                // Nearly antipodal.
                let lat = max(-90, min(90, -a.latitude + Double.random(in: -0.5...0.5, using: &rng)))
                var lon = a.longitude + 180 + Double.random(in: -0.5...0.5, using: &rng)
                if lon > 180 { lon -= 360 }
                b = Coordinate(latitude: lat, longitude: lon)
            default: b = IndexTestSupport.queryPoint(&rng, near: [])
            }
            guard b.isValid else { continue }
            let s = Geodesic.wgs84.distance(from: a, to: b)
            let chord = EarthCenteredPoint(a).chord(to: EarthCenteredPoint(b))
            #expect(GeodesicBounds.lower(chord: chord) <= s, "\(a) → \(b)")
            #expect(s <= GeodesicBounds.upper(chord: chord), "\(a) → \(b)")
        }
    }

    @Test func boundsAreTightAtFiveMiles() {
        let gap = GeodesicBounds.upper(chord: 8046.72) - GeodesicBounds.lower(chord: 8046.72)
        #expect(gap > 0 && gap < 0.001)
    }

    /// Up to 2,000 km the upper bound comes from the arc's series with its tail bounded: never
    /// below the closed form 2ρ asin(c / 2ρ), and within a millimetre of it.
    @Test(arguments: [1.0, 8046.72, 100_000, 399_999, 400_001, 1_000_000, 1_500_000, 1_999_999, 2_000_000, 2_000_001])
    func seriesCoversTheClosedForm(chord: Double) {
        let rho = EllipsoidConstants.smallestRadiusOfCurvature
        let closed = 2 * rho * asin(chord / (2 * rho)) + GeodesicBounds.margin
        #expect(GeodesicBounds.upper(chord: chord) >= closed)
        #expect(GeodesicBounds.upper(chord: chord) - closed < 1e-3)
    }

    @Test func upperBoundCoversTheLongestGeodesic() {
        let pole = EarthCenteredPoint(Coordinate(latitude: 90, longitude: 0))
        let other = EarthCenteredPoint(Coordinate(latitude: -90, longitude: 0))
        #expect(GeodesicBounds.upper(chord: pole.chord(to: other)) >= 20_003_931.458625)
    }
}
