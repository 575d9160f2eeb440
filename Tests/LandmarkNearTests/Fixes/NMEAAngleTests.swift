import Foundation
import Testing
@testable import LandmarkNear

/// NMEA `ddmm.mmmm` angles in degrees on a decimal grid as fine as the sentence: with k
/// decimals of minutes, degrees rounded to max(k + 2, 6) decimals.
@Suite(.suiteTimeLimit) struct NMEAAngleTests {
    static func angle(_ field: String, _ hemisphere: String, latitude: Bool) throws -> Double {
        var field = field, hemisphere = hemisphere
        return try field.withUTF8 { f in
            try hemisphere.withUTF8 { h in try NMEAFieldParser.angle(f, hemisphere: h, isLatitude: latitude).get() }
        }
    }

    @Test(arguments: [
        ("3402.97560", "N", true, 34.0495933, "34.0495933"),
        ("3402.9756", "N", true, 34.049593, "34.049593"),
        ("11605.5913", "W", false, -116.093188, "-116.093188"),
        ("4807.038", "N", true, 48.1173, "48.1173"),
        ("01131.000", "E", false, 11.516667, "11.516667"),
        ("3402", "S", true, -34.033333, "-34.033333"),
        ("0000.0000", "N", true, 0, "0"),
        ("8959.99999", "N", true, 89.9999998, "89.9999998"),
        ("17959.9999999", "E", false, 179.999999998, "179.999999998"),
        ("9000.0000", "S", true, -90, "-90"),
        ("00030.00000", "W", false, -0.5, "-0.5"),
    ])
    func minutesBecomeDegreesAtTheInputsPrecision(_ field: String, _ hemisphere: String, _ latitude: Bool,
                                                  _ expected: Double, _ printed: String) throws {
        let degrees = try Self.angle(field, hemisphere, latitude: latitude)
        #expect(degrees == expected)
        #expect(JSONWriter.number(degrees) == printed)
    }

    /// Against an independent computation (Foundation's 38-digit Decimal, rounded to the grid),
    /// and never more digits printed than the field has, for k >= 4.
    @Test func everyFieldIsItsQuotientRoundedToTheGrid() throws {
        var rng = IndexTestSupport.SeededGenerator(seed: 0x4E4D_4541)
        for _ in 0..<20_000 {
            let latitude = Bool.random(using: &rng)
            let k = Int.random(in: 0...9, using: &rng)
            let degrees = Int.random(in: 0...(latitude ? 89 : 179), using: &rng)
            let minutes = Int.random(in: 0...59, using: &rng)
            var fraction = ""
            for _ in 0..<k { fraction += String(Int.random(in: 0...9, using: &rng)) }
            let whole = String(format: latitude ? "%02d%02d" : "%03d%02d", degrees, minutes)
            let field = k == 0 ? whole : whole + "." + fraction
            let value = try Self.angle(field, latitude ? "N" : "E", latitude: latitude)

            let p = max(k + 2, 6)
            var exact = Decimal(degrees) + Decimal(string: "\(minutes)" + (k == 0 ? "" : "." + fraction))! / 60
            var rounded = Decimal()
            NSDecimalRound(&rounded, &exact, p, .plain)
            let expected = try #require(Double(NSDecimalNumber(decimal: rounded).stringValue))
            guard value == expected else {
                Issue.record("\(field): \(value) != \(expected)")
                return
            }
            if k >= 4 {
                // Digits as written: the field's fixed-width ddmm / dddmm, the number as printed.
                let digits = { (text: String) in text.filter(\.isNumber).count }
                #expect(digits(JSONWriter.number(value)) <= digits(field), "\(field) -> \(JSONWriter.number(value))")
            }
        }
    }

    @Test func sentencesOneStepApartStayApart() throws {
        // The grid (10^-(k+2) degrees) is finer than the sentence's step (10^-k / 60).
        var previous = try Self.angle("3402.00000", "N", latitude: true)
        for step in 1...6000 {
            let value = try Self.angle(String(format: "34%02d.%05d", 2 + step / 100_000, step % 100_000), "N", latitude: true)
            #expect(value > previous)
            previous = value
        }
    }

    @Test(arguments: [
        ("34.02.9756", "latitude \"34.02.9756\" is not ddmm.mmmm"),
        ("3402..9756", "latitude \"3402..9756\" is not ddmm.mmmm"),
        ("340.29756", "latitude \"340.29756\" is not ddmm.mmmm"),
        ("3460.0000", "latitude \"3460.0000\" is not ddmm.mmmm: 60 minutes or more"),
        ("3499.9", "latitude \"3499.9\" is not ddmm.mmmm: 60 minutes or more"),
        ("3459.999999999999999", "latitude \"3459.999999999999999\" is not ddmm.mmmm: 60 minutes or more"),
        ("9999960.0", "latitude \"9999960.0\" is not ddmm.mmmm: 60 minutes or more"),
        ("-3402.9756", "latitude \"-3402.9756\" is not ddmm.mmmm"),
    ])
    func malformedFieldsAreRefused(_ field: String, _ message: String) {
        #expect(throws: NMEAFieldError(message: message)) { try Self.angle(field, "N", latitude: true) }
    }

    @Test func moreThanElevenDecimalsKeepTheQuotient() throws {
        let value = try Self.angle("3402.975600000000", "N", latitude: true)
        #expect(value == 34 + 2.9756 / 60)
    }
}
