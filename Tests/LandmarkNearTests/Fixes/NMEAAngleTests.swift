import Foundation
import Testing

@_spi(Inlining) @testable import LandmarkNearCore
@testable import LandmarkNearReaders
@testable import LandmarkNearServer

/// NMEA `ddmm.mmmm` angles: the double nearest to degrees + minutes / 60, and in event lines
/// the text of that quotient at the minutes' precision (degrees at max(k + 2, 7) decimals).
@Suite(.suiteTimeLimit) struct NMEAAngleTests {
    static func angle(_ field: String, _ hemisphere: String, latitude: Bool) throws -> Double {
        var field = field
        var hemisphere = hemisphere
        return try field.withUTF8 { f in
            try hemisphere.withUTF8 { h in try NMEAFieldParser.angle(f, hemisphere: h, isLatitude: latitude).get() }
        }
    }

    /// degrees + minutes / 60 as a 38-digit Decimal.
    static func exact(_ degrees: Int, _ minutes: String) -> Decimal {
        Decimal(degrees) + Decimal(string: minutes)! / 60
    }

    @Test(arguments: [
        ("3402.9756", "N", true, "34.0495933"),
        ("3402.97560", "N", true, "34.0495933"),
        ("3402.97561", "N", true, "34.0495935"),
        ("11605.5913", "W", false, "-116.0931883"),
        ("11605.59130", "W", false, "-116.0931883"),
        ("11605.59125", "W", false, "-116.0931875"),
        ("4807.038", "N", true, "48.1173"),
        ("01131.000", "E", false, "11.5166667"),
        ("3402", "S", true, "-34.0333333"),
        ("0000.0000", "N", true, "0"),
        ("8959.99999", "N", true, "89.9999998"),
        ("17959.9999999", "E", false, "179.999999998"),
        ("9000.0000", "S", true, "-90"),
        ("00030.00000", "W", false, "-0.5"),
        ("0000.0010", "N", true, "0.0000167"),
        // More than 7 decimals of minutes: not recognised, the shortest round-trip form.
        ("3402.975612345", "N", true, "34.04959353908333"),
    ])
    func eventLinesShowTheMinutesPrecision(_ field: String, _ hemisphere: String, _ latitude: Bool, _ printed: String) throws {
        let degrees = try Self.angle(field, hemisphere, latitude: latitude)
        #expect(DegreesText.make(degrees) == printed)
    }

    /// For random fields: the value is the double nearest the exact quotient; the event-line text
    /// is that quotient rounded to max(k + 2, 7) decimals (k without trailing zeros), computed
    /// independently with Foundation's Decimal; and for k >= 5 it has no more digits than the
    /// field, for k = 4 at most one more (both counted as written: the field's fixed-width
    /// ddmm/dddmm, the number printed).
    @Test func everyFieldIsItsQuotient() throws {
        var rng = SplitMix64(seed: 0x4E4D_4541)
        for _ in 0..<20_000 {
            let latitude = Bool.random(using: &rng)
            let k = Int.random(in: 0...7, using: &rng)
            let degrees = Int.random(in: 0...(latitude ? 89 : 179), using: &rng)
            let minutes = Int.random(in: 0...59, using: &rng)
            var fraction = ""
            for _ in 0..<k { fraction += String(Int.random(in: 0...9, using: &rng)) }
            let whole = String(format: latitude ? "%02d%02d" : "%03d%02d", degrees, minutes)
            let field = k == 0 ? whole : whole + "." + fraction
            let value = try Self.angle(field, latitude ? "N" : "E", latitude: latitude)

            let exact = Self.exact(degrees, "\(minutes)" + (k == 0 ? "" : "." + fraction))
            // glibc's printf writes a double's exact binary value; 30 decimals are plenty here.
            let error = { (candidate: Double) in abs(Decimal(string: String(format: "%.30f", candidate))! - exact) }
            guard error(value) <= error(value.nextUp), error(value) <= error(value.nextDown) else {
                Issue.record("\(field): \(value) is not the nearest double to \(exact)")
                return
            }

            let significant = fraction.reversed().drop(while: { $0 == "0" }).count
            var rounded = Decimal()
            var unrounded = exact
            NSDecimalRound(&rounded, &unrounded, max(significant + 2, 7), .plain)
            let text = DegreesText.make(value)
            let expected = NSDecimalNumber(decimal: rounded).stringValue
            // A quotient that ends within 15 digits prints as the plain shortest form.
            guard text == expected || (text == JSONWriter.number(value) && Double(expected) == value) else {
                Issue.record("\(field): \(text) != \(expected)")
                return
            }
            if k >= 4 {
                #expect(text.filter(\.isNumber).count <= field.filter(\.isNumber).count + (k == 4 ? 1 : 0), "\(field) -> \(text)")
            }
        }
    }

    /// Consecutive sentences of a 4- or 5-decimal receiver, trailing zeros included, print
    /// increasing texts: the 7-decimal floor keeps a 2.00020′ from rounding onto 2.00022′.
    @Test(arguments: [4, 5])
    func sentencesOneStepApartPrintIncreasingTexts(_ decimals: Int) throws {
        var previous = -Double.infinity
        for step in 0...6000 {
            let field = String(format: "34%02d.%0\(decimals)d", 2 + step / 100_000, step % 100_000)
            let text = DegreesText.make(try Self.angle(field, "N", latitude: true))
            let printed = try #require(Double(text))
            #expect(printed > previous, "\(field) -> \(text)")
            previous = printed
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

    @Test func moreThanElevenDecimalsStillGiveTheQuotient() throws {
        let value = try Self.angle("3402.975600000000", "N", latitude: true)
        #expect(abs(value - (34 + 2.9756 / 60)) < 1e-13)
    }
}
