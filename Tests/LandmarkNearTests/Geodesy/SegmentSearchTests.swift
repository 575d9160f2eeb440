import Foundation
import Testing

@_spi(Inlining) @testable import LandmarkNearCore
@_spi(Inlining) @testable import LandmarkNearGeodesy

/// The facts `SegmentSearch` rests on, checked against PROJ.
@Suite(.suiteTimeLimit) struct SegmentSearchTests {
    /// f′ = −cos θ and f″ = sin²θ · M12/m12 (X first): against central differences of the
    /// distance along segments of every length, near and far.
    @Test func derivativesMatchDifferences() {
        var random = SplitMix64(seed: 21)
        let g = Geodesic.wgs84
        for _ in 0..<200 {
            let a = Coordinate(latitude: random.unit() * 170 - 85, longitude: random.unit() * 360 - 180)
            let length = 1_000 + random.unit() * 9_000_000
            let b = g.destination(from: a, azimuth: random.unit() * 360 - 180, distance: length)
            let p = Coordinate(latitude: random.unit() * 170 - 85, longitude: random.unit() * 360 - 180)
            let segment = GeodesicSegment(from: a, to: b)
            var search = SegmentSearch(segment: segment, target: p)
            let s = segment.length * (0.1 + 0.8 * random.unit())
            let h = 200.0
            let f = { (t: Double) in g.distance(from: segment.line.position(at: t).coordinate, to: p) }
            let (f0, fMinus, fPlus) = (f(s), f(s - h), f(s + h))
            guard f0 > 1_000, f0 < 19_000_000 else { continue }
            let probe = search.probe(s)
            #expect(abs(probe.distance - f0) < 1e-6)
            #expect(abs((fPlus - fMinus) / (2 * h) - probe.slope) < 1e-6)
            let (x, heading) = segment.line.position(at: s)
            let inverse = g.generalInverse(from: x, to: p)
            let sine = sin((inverse.azimuth1 - heading) * .pi / 180)
            let second = sine * sine * inverse.scale12 / inverse.reducedLength
            let difference = (fPlus - 2 * f0 + fMinus) / (h * h)
            // The difference quotient's rounding: a few nanometres of f over h² = 40 000 m².
            #expect(abs(difference - second) < 1e-12 + 1e-3 * abs(second), "\(difference) vs \(second)")
        }
    }

    /// The largest |M/m| over geodesics whose length is in the band searched with the curvature
    /// bound (D0 − 200 km … D1 + 200 km), from every latitude along every azimuth, both ways:
    /// `bandCurvature` must be at least twice it.
    @Test func bandCurvatureBound() {
        let g = Geodesic.wgs84
        let lo = SegmentSearch.nearLimit - 2 * SegmentSearch.widestBandPiece
        let hi = SegmentSearch.farLimit + 2 * SegmentSearch.widestBandPiece
        var largest = 0.0
        for latitude in stride(from: -90.0, through: 90, by: 2.5) {
            for azimuth in stride(from: 0.0, through: 180, by: 2.5) {
                for distance in stride(from: lo, through: hi, by: (hi - lo) / 16) {
                    let start = Coordinate(latitude: latitude, longitude: 0)
                    let end = g.destination(from: start, azimuth: azimuth, distance: distance)
                    let inverse = g.generalInverse(from: start, to: end)
                    guard abs(inverse.distance - distance) < 1e-3 else { continue }  // not the shortest
                    largest = max(largest, abs(inverse.scale12) / inverse.reducedLength, abs(inverse.scale21) / inverse.reducedLength)
                }
            }
        }
        print("largest |M/m| in the band: \(largest)")
        #expect(2 * largest <= SegmentSearch.bandCurvature)
    }

    /// How many evaluations of f (a position and an inverse problem each) a search takes: a
    /// few for a point near a short edge, a few dozen for a long edge or a far point, and the
    /// band bounded (from a pole to 170° of the equator: every point is nearest).
    @Test(arguments: [
        ("edges up to 20 km, points within 2 km", 1_000.0...20_000, 0.0...2_000, 2.5),
        ("edges up to 500 km, points within 50 km", 20_000.0...500_000, 0.0...50_000, 2.5),
        ("edges up to 10,000 km, points within 5,000 km", 500_000.0...10_000_000, 0.0...5_000_000, 5.0),
    ])
    func probesPerSearch(_ name: String, _ lengths: ClosedRange<Double>, _ offsets: ClosedRange<Double>, _ mean: Double) {
        var random = SplitMix64(seed: 22)
        let g = Geodesic.wgs84
        var total = 0
        let cases = 300
        for _ in 0..<cases {
            let a = Coordinate(latitude: random.unit() * 170 - 85, longitude: random.unit() * 360 - 180)
            let azimuth = random.unit() * 360 - 180
            let length = lengths.lowerBound + random.unit() * (lengths.upperBound - lengths.lowerBound)
            let segment = GeodesicSegment(from: a, to: g.destination(from: a, azimuth: azimuth, distance: length))
            let (x, heading) = segment.line.position(at: length * (random.unit() * 1.4 - 0.2))
            let offset = offsets.lowerBound + random.unit() * (offsets.upperBound - offsets.lowerBound)
            let p = g.destination(from: x, azimuth: heading + 90, distance: offset)
            var search = SegmentSearch(segment: segment, target: p)
            _ = search.run(from: segment.edge.chordFraction(of: EarthCenteredPoint(p)) * length)
            total += search.probes
        }
        print("\(name): \(Double(total) / Double(cases)) probes per search")
        #expect(Double(total) / Double(cases) <= mean)
    }

    @Test func theBandIsSearchedInBoundedTime() {
        let g = Geodesic.wgs84
        let segment = GeodesicSegment(from: Coordinate(latitude: 0, longitude: 120), to: Coordinate(latitude: 0, longitude: -70))
        var search = SegmentSearch(segment: segment, target: Coordinate(latitude: 90, longitude: 0))
        _ = search.run(from: segment.length / 2)
        print("pole to 170° of the equator: \(search.probes) probes")
        #expect(search.probes < 200_000)
    }
}
