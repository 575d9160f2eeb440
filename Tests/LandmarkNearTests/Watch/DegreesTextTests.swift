import Foundation
import Testing

@_spi(Inlining) @testable import LandmarkNearCore
@testable import LandmarkNearServer

/// Event-line coordinates: decimal inputs as written (the shortest round-trip form), NMEA
/// minutes at their precision, anything else in full.
@Suite(.suiteTimeLimit) struct DegreesTextTests {
    static let cases: [(Double, String)] = [
        (34.011286, "34.011286"), (-116.166868, "-116.166868"), (48.69423, "48.69423"), (34.0, "34"), (-0.0, "0"),
        (0.30000000000000004, "0.30000000000000004"), (34.0495933, "34.0495933"), (89.999999999999, "89.999999999999"),
        (34 + 2.9756 / 60, "34.0495933"), (34.049593333333334, "34.0495933"), (-(116 + 5.5913 / 60), "-116.0931883"),
        (1.0 / 3.0, "0.3333333"), (180, "180"), (-90, "-90"),
    ]

    @Test(arguments: cases)
    func writesWhatTheInputCarried(_ value: Double, _ text: String) {
        #expect(DegreesText.make(value) == text)
    }

    /// A decimal with up to 14 significant digits prints exactly as `JSONWriter.number` does,
    /// so as it was written (without trailing zeros): minutes are only recognised behind a
    /// 15-digit shortest form.
    @Test func decimalInputsAreNeverRewritten() {
        var rng = SplitMix64(seed: 0xDE61)
        for _ in 0..<50_000 {
            let decimals = Int.random(in: 0...11, using: &rng)
            let scale = pow(10.0, Double(decimals))
            let units = Int64.random(in: -180 * Int64(scale)...180 * Int64(scale), using: &rng)
            let text = decimals == 0 ? String(units) : String(format: "%.\(decimals)f", Double(units) / scale)
            guard let value = Double(text) else { continue }
            if DegreesText.make(value) != JSONWriter.number(value) {
                Issue.record("\(text): \(DegreesText.make(value)) != \(JSONWriter.number(value))")
                return
            }
        }
    }

    @Test(arguments: [("34.049593333333334", 17), ("0.000017", 2), ("1.6666666666666667e-05", 17), ("-116", 3), ("0", 0)])
    func countsSignificantDigits(_ text: String, _ count: Int) {
        #expect(DegreesText.significantDigits(text) == count)
    }

    @Test func recognisedMinutesAreTheSmallestExactOnes() throws {
        let value = MinuteQuotient.degrees(units: 34 * 600_000 + 29_756, decimals: 4)
        let found = try #require(MinuteQuotient.recognise(value))
        #expect(found.units == 34 * 600_000 + 29_756 && found.decimals == 4)
        // 2.97560' is 2.9756': the trailing zero is dropped.
        #expect(MinuteQuotient.recognise(MinuteQuotient.degrees(units: 34 * 6_000_000 + 297_560, decimals: 5))?.decimals == 4)
        #expect(MinuteQuotient.recognise(0.1 + 0.2) == nil)
        #expect(MinuteQuotient.recognise(-1) == nil)
    }
}
