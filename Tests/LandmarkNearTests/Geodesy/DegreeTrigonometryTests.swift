import Foundation
import Testing

@_spi(Inlining) @testable import LandmarkNearGeodesy

@Suite(.suiteTimeLimit) struct DegreeTrigonometryTests {
    /// Within 4.5e-16 (four units in the last place of 1) of the C library's sin and cos of the
    /// angle in radians (each is within a unit or two in the last place of the true values, the
    /// radian route with the rounding of x · π/180 too), over 1M seeded angles of every
    /// latitude and longitude, and at the octant and quadrant boundaries.
    @Test func agreesWithTheCLibrary() {
        var rng = IndexTestSupport.SeededGenerator(seed: 5)
        var angles: [Double] = [0, -0.0, 1e-300, 1e-9, 44.999_999_999, 45, 45.000_000_001, 89.999_999, 90, 135, 179.999_999_999, 180]
        angles += angles.map { -$0 }
        for _ in 0..<1_000_000 { angles.append(Double.random(in: -180...180, using: &rng)) }
        var worst = 0.0
        for degrees in angles {
            let (s, c) = DegreeTrigonometry.sinCos(degrees: degrees)
            let radians = degrees * (Double.pi / 180)
            worst = max(worst, abs(s - sin(radians)), abs(c - cos(radians)))
        }
        #expect(worst <= 4.5e-16, "largest difference \(worst)")
    }

    /// The small-angle series (|x| <= 0.05 rad) is the C library's sin and cos to a couple of
    /// units in the last place.
    @Test func smallAnglesAgreeWithTheCLibrary() {
        var rng = IndexTestSupport.SeededGenerator(seed: 7)
        for n in 0..<100_000 {
            let x = n == 0 ? 0.05 : n == 1 ? -0.05 : n == 2 ? 0 : Double.random(in: -0.05...0.05, using: &rng)
            let (s, c) = DegreeTrigonometry.sinCos(smallRadians: x)
            #expect(abs(s - sin(x)) <= 4e-16 * abs(x) && abs(c - cos(x)) <= 3e-16, "x = \(x)")
        }
    }

    /// NaN and infinities give NaN (no trap in the quarter-turn count); a huge angle the C
    /// library's values.
    @Test func nonFiniteAndHugeAngles() {
        for degrees in [Double.nan, .infinity, -.infinity] {
            let (s, c) = DegreeTrigonometry.sinCos(degrees: degrees)
            #expect(s.isNaN && c.isNaN)
        }
        let (s, c) = DegreeTrigonometry.sinCos(degrees: 1e7 + 30)
        #expect(s == sin((1e7 + 30) * (Double.pi / 180)) && c == cos((1e7 + 30) * (Double.pi / 180)))
    }

    /// A quarter turn more turns the pair exactly, to the bit and the sign of zero, in every
    /// quadrant and on both sides of zero: (sin, cos) of x + 90k is (s, c), (c, −s), (−s, −c),
    /// (−c, s) of x's for k mod 4 = 0 ... 3 (x on a grid of 1/64° inside ±45°, where x and x + 90k
    /// reduce to the same angle: x + 90k is exact).
    @Test(arguments: -5...5)
    func quarterTurnsTurnThePairExactly(_ k: Int) {
        func bits(_ pair: (Double, Double)) -> [UInt64] { [pair.0.bitPattern, pair.1.bitPattern] }
        for step in -2_879...2_879 {
            let x = Double(step) / 64
            let (s, c) = DegreeTrigonometry.sinCos(degrees: x)
            let turned: (Double, Double)
            switch ((k % 4) + 4) % 4 {
            case 0: turned = (s, c)
            case 1: turned = (c, -s)
            case 2: turned = (-s, -c)
            default: turned = (-c, s)
            }
            let got = DegreeTrigonometry.sinCos(degrees: x + 90 * Double(k))
            #expect(bits(got) == bits(turned), "x = \(x), k = \(k)")
        }
    }

    /// Multiples of 90° are exact, where the radian route leaves 6e-17 for cos 90°.
    @Test(arguments: [(0.0, 0.0, 1.0), (90, 1, 0), (-90, -1, 0), (180, 0, -1), (-180, 0, -1), (30, 0.5, 0.866_025_403_784_438_6)])
    func quadrantsAndAKnownValue(degrees: Double, sine: Double, cosine: Double) {
        let (s, c) = DegreeTrigonometry.sinCos(degrees: degrees)
        #expect(abs(s - sine) <= 1.2e-16 && abs(c - cosine) <= 1.2e-16)
        if sine == 0 || abs(sine) == 1 { #expect(abs(s) == abs(sine) && abs(c) == abs(cosine)) }
    }
}
