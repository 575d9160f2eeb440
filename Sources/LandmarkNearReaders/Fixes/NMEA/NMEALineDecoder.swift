@_spi(Inlining) import LandmarkNearCore

/// Decodes NMEA 0183 position sentences: RMC, GGA, GLL and GNS of any talker (GP, GN, GL, GA,
/// BD, ...). Each sentence with a valid position is one fix of device `default`.
///
/// - Not fixes, skipped silently: RMC with status V, GGA with quality 0, GLL with status V or
///   mode N, GNS whose mode letters are all N; other sentence types (GSV, GSA, VTG, AIS `!`
///   sentences, proprietary `$P...`); lines that are not NMEA (gpspipe -r's JSON headers).
/// - A checksum, when present, must match: a sentence that fails is an invalid record.
/// - Time: RMC gives date and time. GGA, GLL and GNS give only the time of day; it is put on
///   the date of the latest RMC seen before them (a day later or earlier when the time of day
///   is more than 12 hours past or before that RMC's, i.e. across midnight), and they have no
///   time while no RMC has been seen.
/// - Accuracy stays unknown: NMEA gives HDOP, a unitless dilution factor, not metres.
package final class NMEALineDecoder: LineDecoder {
    /// The date (days since the epoch) and time of day (seconds) of the latest RMC.
    private var latestDate: (day: Int64, secondOfDay: Int64)?

    /// The latest RMC's date and time of day (to the second; nil before the first): what dates
    /// the GGA, GLL and GNS sentences after it. Carried across restarts (`--state`), so that a
    /// stream split in two runs reads as one.
    var latestRMCTime: Timestamp? {
        get { latestDate.map { Timestamp(seconds: $0.day * 86400 + $0.secondOfDay) } }
        set {
            latestDate = newValue.map { time in
                let day = time.seconds >= 0 ? time.seconds / 86400 : (time.seconds - 86399) / 86400
                return (day, time.seconds - day * 86400)
            }
        }
    }

    private enum Kind { case rmc, gga, gll, gns }

    let noFixPrefix = "no NMEA sentence had a fix"
    /// The kind of skipped lines that are not sentences at all.
    package static let notNMEA = "line that is not NMEA"
    /// gpspipe -r's JSON headers (VERSION, DEVICES, WATCH) before its sentences: expected in an
    /// NMEA stream from gpsd, so not a sign of another format.
    package static let gpsdReport = "gpsd report"

    func noFixExplanation(linesDecoded: Int) -> String? { nil }

    private static let gpsdReportPrefix = Array(#"{"class":"#.utf8)

    func decode(_ line: UnsafeBufferPointer<UInt8>, notingZonelessTime: Bool) -> LineOutcome {
        guard let lead = line.first, lead == UInt8(ascii: "$") || lead == UInt8(ascii: "!") else {
            return .skip(line.starts(with: Self.gpsdReportPrefix) ? Self.gpsdReport : Self.notNMEA)
        }
        guard lead == UInt8(ascii: "$") else { return .skip("AIS or other ! sentence") }
        var bodyEnd = 0
        let checksum = NMEAChecksum.verify(line, bodyEnd: &bodyEnd)
        let fields = NMEAFields(line, bodyEnd: bodyEnd)
        guard let kind = kind(of: fields) else { return .skip(Self.otherSentence(fields[0])) }
        let outcome: LineOutcome
        switch checksum {
        case .valid, .absent:
            switch kind {
            case .rmc: outcome = decodeRMC(fields)
            case .gga: outcome = decodeGGA(fields)
            case .gll: outcome = decodeGLL(fields)
            case .gns: outcome = decodeGNS(fields)
            }
        case .mismatch(let written, let computed):
            outcome = .invalid(
                "checksum mismatch: the sentence says \(NMEAChecksum.hex(written)), its bytes give \(NMEAChecksum.hex(computed))")
        case .malformed:
            outcome = .invalid("malformed checksum after '*'")
        }
        if case .invalid(let reason) = outcome {
            // Named by its address field (GPRMC, GNGGA, ...).
            return .invalid(String(decoding: fields[0], as: UTF8.self) + ": " + reason)
        }
        return outcome
    }

    // MARK: Sentences

    private func decodeRMC(_ fields: NMEAFields) -> LineOutcome {
        // $--RMC,time,status,lat,N/S,lon,E/W,speed,course,ddmmyy,...
        let timeOfDay: TimeOfDay?
        switch NMEAFieldParser.timeOfDay(fields[1]) {
        case .success(let value): timeOfDay = value
        case .failure(let error): return .invalid(error.message)
        }
        var time: Timestamp?
        switch NMEAFieldParser.date(fields[9]) {
        case .success(let day?):
            if let timeOfDay {
                latestDate = (day, timeOfDay.seconds)
                time = Timestamp(seconds: day * 86400 + timeOfDay.seconds, nanoseconds: timeOfDay.nanoseconds)
            }
        case .success(nil):
            time = carriedTime(timeOfDay)
        case .failure(let error):
            return .invalid(error.message)
        }
        guard equals(fields[2], "A") else {
            return .skip("RMC with status " + (fields[2].isEmpty ? "empty" : String(decoding: fields[2].prefix(4), as: UTF8.self)))
        }
        return position(fields, latitudeField: 3, time: time)
    }

    private func decodeGGA(_ fields: NMEAFields) -> LineOutcome {
        // $--GGA,time,lat,N/S,lon,E/W,quality,satellites,hdop,altitude,M,...
        let quality = fields[6]
        guard !quality.isEmpty, !equals(quality, "0") else { return .skip(quality.isEmpty ? "GGA without quality" : "GGA with quality 0") }
        return timedPosition(fields, timeField: 1, latitudeField: 2)
    }

    private func decodeGLL(_ fields: NMEAFields) -> LineOutcome {
        // $--GLL,lat,N/S,lon,E/W,time,status,mode (status and mode since NMEA 2.x)
        if equals(fields[6], "V") { return .skip("GLL with status V") }
        if equals(fields[7], "N") { return .skip("GLL with mode N") }
        return timedPosition(fields, timeField: 5, latitudeField: 1)
    }

    private func decodeGNS(_ fields: NMEAFields) -> LineOutcome {
        // $--GNS,time,lat,N/S,lon,E/W,mode (one letter a constellation),satellites,hdop,...
        guard fields[6].contains(where: { $0 != UInt8(ascii: "N") }) else { return .skip("GNS with mode N") }
        return timedPosition(fields, timeField: 1, latitudeField: 2)
    }

    // MARK: Parts

    /// A position whose time is a time of day on the latest RMC's date.
    private func timedPosition(_ fields: NMEAFields, timeField: Int, latitudeField: Int) -> LineOutcome {
        switch NMEAFieldParser.timeOfDay(fields[timeField]) {
        case .success(let timeOfDay): return position(fields, latitudeField: latitudeField, time: carriedTime(timeOfDay))
        case .failure(let error): return .invalid(error.message)
        }
    }

    /// The time of day on the latest RMC's date, across midnight when it has passed.
    private func carriedTime(_ timeOfDay: TimeOfDay?) -> Timestamp? {
        guard let timeOfDay, let latestDate else { return nil }
        var day = latestDate.day
        if timeOfDay.seconds < latestDate.secondOfDay - 43_200 { day += 1 }
        if timeOfDay.seconds > latestDate.secondOfDay + 43_200 { day -= 1 }
        return Timestamp(seconds: day * 86400 + timeOfDay.seconds, nanoseconds: timeOfDay.nanoseconds)
    }

    /// The fix from the four fields latitude, N/S, longitude, E/W starting at `latitudeField`.
    private func position(_ fields: NMEAFields, latitudeField: Int, time: Timestamp?) -> LineOutcome {
        let latitude: Double
        switch NMEAFieldParser.angle(fields[latitudeField], hemisphere: fields[latitudeField + 1], isLatitude: true) {
        case .success(let value): latitude = value
        case .failure(let error): return .invalid(error.message)
        }
        let longitude: Double
        switch NMEAFieldParser.angle(fields[latitudeField + 2], hemisphere: fields[latitudeField + 3], isLatitude: false) {
        case .success(let value): longitude = value
        case .failure(let error): return .invalid(error.message)
        }
        let coordinate = Coordinate(latitude: latitude, longitude: longitude)
        if let reason = coordinate.invalidReason { return .invalid(reason) }
        // No accuracy: HDOP is a dilution factor, not a distance in metres.
        // NMEA times are UTC by definition: none is without a zone.
        return .fix(Fix(coordinate: coordinate, time: time))
    }

    private func kind(of fields: NMEAFields) -> Kind? {
        let address = fields[0]
        guard address.count == 5 || address.count == 6, address[0] != UInt8(ascii: "P") else { return nil }
        let type = address.count - 3
        switch (address[type], address[type + 1], address[type + 2]) {
        case (UInt8(ascii: "R"), UInt8(ascii: "M"), UInt8(ascii: "C")): return .rmc
        case (UInt8(ascii: "G"), UInt8(ascii: "G"), UInt8(ascii: "A")): return .gga
        case (UInt8(ascii: "G"), UInt8(ascii: "L"), UInt8(ascii: "L")): return .gll
        case (UInt8(ascii: "G"), UInt8(ascii: "N"), UInt8(ascii: "S")): return .gns
        default: return nil
        }
    }

    /// A sentence that carries no position fix, named by its type (`GSV`, `WPL`, `PGRME` ...).
    private static func otherSentence(_ address: UnsafeBufferPointer<UInt8>) -> String {
        guard address.count >= 5 else { return "sentence without an address" }
        let type = address[0] == UInt8(ascii: "P") ? address.prefix(8) : address.suffix(from: address.count - 3).prefix(3)
        return String(decoding: UnsafeBufferPointer(rebasing: type), as: UTF8.self) + " (no position fix)"
    }

    private func equals(_ bytes: UnsafeBufferPointer<UInt8>, _ letter: Unicode.Scalar) -> Bool {
        bytes.count == 1 && bytes[0] == UInt8(ascii: letter)
    }
}
