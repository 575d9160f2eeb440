@_spi(Inlining) import LandmarkNearCore

/// A time of day from an NMEA `hhmmss.sss` field.
struct TimeOfDay: Equatable {
    var seconds: Int64
    var nanoseconds: Int32
}

struct NMEAFieldError: Error, Equatable {
    var message: String
}

/// Parsers for the NMEA 0183 field forms used by position sentences.
enum NMEAFieldParser {
    /// `hhmmss` or `hhmmss.sss`; nil for an empty field.
    static func timeOfDay(_ field: UnsafeBufferPointer<UInt8>) -> Result<TimeOfDay?, NMEAFieldError> {
        if field.isEmpty { return .success(nil) }
        var failure: NMEAFieldError { NMEAFieldError(message: "time \"\(String(decoding: field, as: UTF8.self))\" is not hhmmss.ss") }
        guard field.count >= 6, let hours = digits(field, 0, 2), let minutes = digits(field, 2, 2),
            let seconds = digits(field, 4, 2), hours < 24, minutes < 60, seconds <= 60
        else { return .failure(failure) }
        var nanos: Int64 = 0
        if field.count > 6 {
            guard field[6] == UInt8(ascii: "."), field.count > 7, field.count <= 16 else { return .failure(failure) }
            var scale: Int64 = 100_000_000
            for index in 7..<field.count {
                let digit = field[index] &- 0x30
                guard digit < 10 else { return .failure(failure) }
                nanos += Int64(digit) * scale
                scale /= 10
            }
        }
        return .success(TimeOfDay(seconds: hours * 3600 + minutes * 60 + min(seconds, 59), nanoseconds: Int32(nanos)))
    }

    /// `ddmmyy` as days since the epoch; two-digit years 80–99 are 1980–1999, the others 20xx.
    /// nil for an empty field.
    static func date(_ field: UnsafeBufferPointer<UInt8>) -> Result<Int64?, NMEAFieldError> {
        if field.isEmpty { return .success(nil) }
        let failure = NMEAFieldError(message: "date \"\(String(decoding: field, as: UTF8.self))\" is not ddmmyy")
        guard field.count == 6, let day = digits(field, 0, 2), let month = digits(field, 2, 2), let year = digits(field, 4, 2) else {
            return .failure(failure)
        }
        let fullYear = year >= 80 ? 1900 + year : 2000 + year
        guard Timestamp.dateExists(year: fullYear, month: month, day: day) else { return .failure(failure) }
        return .success(Timestamp.daysSinceEpoch(year: fullYear, month: month, day: day))
    }

    /// Degrees from `ddmm.mmmm` (latitude) or `dddmm.mmmm` (longitude) and its hemisphere
    /// letter: the double nearest to degrees + minutes / 60, computed as one correctly rounded
    /// division of integers (`quotientDegrees`), so that an event line can recognise such a
    /// quotient and print it with the sentence's precision (`MinuteQuotient`).
    static func angle(_ field: UnsafeBufferPointer<UInt8>, hemisphere: UnsafeBufferPointer<UInt8>, isLatitude: Bool) -> Result<
        Double, NMEAFieldError
    > {
        let name = isLatitude ? "latitude" : "longitude"
        if field.isEmpty { return .failure(NMEAFieldError(message: "missing \(name)")) }
        var notAngle: NMEAFieldError {
            NMEAFieldError(
                message: "\(name) \"\(String(decoding: field, as: UTF8.self))\" is not \(isLatitude ? "ddmm.mmmm" : "dddmm.mmmm")")
        }
        var tooManyMinutes: NMEAFieldError {
            NMEAFieldError(
                message:
                    "\(name) \"\(String(decoding: field, as: UTF8.self))\" is not \(isLatitude ? "ddmm.mmmm" : "dddmm.mmmm"): 60 minutes or more"
            )
        }
        // ddmm.mmmm / dddmm.mmmm: at least 4 (5) digits before the point, so that `34` is
        // not read as 0°34′; only digits and one point.
        var integerDigits = field.count
        for index in 0..<field.count where field[index] &- 0x30 >= 10 {
            guard field[index] == UInt8(ascii: "."), integerDigits == field.count else { return .failure(notAngle) }
            integerDigits = index
        }
        guard integerDigits >= (isLatitude ? 4 : 5) else { return .failure(notAngle) }
        let magnitude: Double
        switch quotientDegrees(field, integerDigits: integerDigits) {
        case .degrees(let value):
            magnitude = value
        case .sixtyMinutesOrMore:
            return .failure(tooManyMinutes)
        case .beyondTheIntegers:
            // More than 11 decimals, or 1000 degrees or more (out of range anyway).
            guard let value = DecimalNumber.parse(field), value.isFinite else { return .failure(notAngle) }
            let degrees = (value / 100).rounded(.down)
            let minutes = value - degrees * 100
            guard minutes < 60 else { return .failure(tooManyMinutes) }
            magnitude = degrees + minutes / 60
        }
        let letter = hemisphere.count == 1 ? hemisphere[0] : 0
        switch (isLatitude, letter) {
        case (true, UInt8(ascii: "N")), (false, UInt8(ascii: "E")): return .success(magnitude)
        case (true, UInt8(ascii: "S")), (false, UInt8(ascii: "W")): return .success(-magnitude)
        default:
            let expected = isLatitude ? "N or S" : "E or W"
            return .failure(
                NMEAFieldError(message: "\(name) hemisphere \"\(String(decoding: hemisphere, as: UTF8.self))\" is not \(expected)"))
        }
    }

    enum QuotientDegrees: Equatable {
        case degrees(Double)
        case sixtyMinutesOrMore
        /// Too many decimals (more than 11) or too large (1000 degrees or more) for the
        /// integer path.
        case beyondTheIntegers
    }

    /// The degrees of a well-formed `d...dmm.m...m` (digits, at most one point, `integerDigits`
    /// of them before it), as the double nearest to the exact value.
    ///
    /// With I the integer part and F the k fraction digits, the value is
    /// (I div 100) + ((I mod 100)·10^k + F) / (60·10^k) = n / (60·10^k) with n an integer:
    /// `MinuteQuotient.degrees`, correctly rounded.
    static func quotientDegrees(_ field: UnsafeBufferPointer<UInt8>, integerDigits: Int) -> QuotientDegrees {
        let k = field.count > integerDigits ? field.count - integerDigits - 1 : 0
        guard k <= 11 else { return .beyondTheIntegers }
        var integer: UInt64 = 0
        for index in 0..<integerDigits {
            integer = integer * 10 + UInt64(field[index] &- 0x30)
            if integer >= 100_000 { return .beyondTheIntegers }
        }
        guard integer % 100 < 60 else { return .sixtyMinutesOrMore }
        var fraction: UInt64 = 0
        if k > 0 {
            for index in (integerDigits + 1)..<field.count { fraction = fraction * 10 + UInt64(field[index] &- 0x30) }
        }
        let units = (integer / 100) * 60 * MinuteQuotient.powersOfTen[k] + (integer % 100) * MinuteQuotient.powersOfTen[k] + fraction
        guard units < 1 << 53 else { return .beyondTheIntegers }
        return .degrees(MinuteQuotient.degrees(units: units, decimals: k))
    }

    private static func digits(_ field: UnsafeBufferPointer<UInt8>, _ start: Int, _ count: Int) -> Int64? {
        var value: Int64 = 0
        for index in start..<(start + count) {
            let digit = field[index] &- 0x30
            guard digit < 10 else { return nil }
            value = value * 10 + Int64(digit)
        }
        return value
    }
}
