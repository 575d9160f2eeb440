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
struct NMEALineDecoder: LineDecoder {
    private var fields: [Range<Int>] = []
    /// The date (days since the epoch) and time of day (seconds) of the latest RMC.
    private var latestDate: (day: Int64, secondOfDay: Int64)?

    private enum Kind { case rmc, gga, gll, gns }

    mutating func decode(_ line: UnsafeBufferPointer<UInt8>) -> LineOutcome {
        guard let lead = line.first, lead == UInt8(ascii: "$") else { return .skip }
        var bodyEnd = 0
        let checksum = NMEAChecksum.verify(line, bodyEnd: &bodyEnd)
        split(line, bodyEnd: bodyEnd)
        guard let kind = kind(of: line) else { return .skip }
        let address = text(line, 0)
        switch checksum {
        case .valid, .absent: break
        case .mismatch(let written, let computed):
            return .invalid("\(address): checksum mismatch: the sentence says \(NMEAChecksum.hex(written)), its bytes give \(NMEAChecksum.hex(computed))")
        case .malformed:
            return .invalid("\(address): malformed checksum after '*'")
        }
        switch kind {
        case .rmc: return decodeRMC(line, address)
        case .gga: return decodeGGA(line, address)
        case .gll: return decodeGLL(line, address)
        case .gns: return decodeGNS(line, address)
        }
    }

    // MARK: Sentences

    private mutating func decodeRMC(_ line: UnsafeBufferPointer<UInt8>, _ address: String) -> LineOutcome {
        // $--RMC,time,status,lat,N/S,lon,E/W,speed,course,ddmmyy,...
        let timeOfDay: TimeOfDay?
        switch NMEAFieldParser.timeOfDay(field(line, 1)) {
        case .success(let value): timeOfDay = value
        case .failure(let error): return .invalid("\(address): \(error.message)")
        }
        var time: Timestamp?
        switch NMEAFieldParser.date(field(line, 9)) {
        case .success(let day?):
            if let timeOfDay {
                latestDate = (day, timeOfDay.seconds)
                time = Timestamp(seconds: day * 86400 + timeOfDay.seconds, nanoseconds: timeOfDay.nanoseconds)
            }
        case .success(nil):
            time = carriedTime(timeOfDay)
        case .failure(let error):
            return .invalid("\(address): \(error.message)")
        }
        guard equals(field(line, 2), "A") else { return .skip }
        return position(line, address, latitudeField: 3, time: time)
    }

    private mutating func decodeGGA(_ line: UnsafeBufferPointer<UInt8>, _ address: String) -> LineOutcome {
        // $--GGA,time,lat,N/S,lon,E/W,quality,satellites,hdop,altitude,M,...
        let quality = field(line, 6)
        guard !quality.isEmpty, !equals(quality, "0") else { return .skip }
        switch NMEAFieldParser.timeOfDay(field(line, 1)) {
        case .success(let timeOfDay): return position(line, address, latitudeField: 2, time: carriedTime(timeOfDay))
        case .failure(let error): return .invalid("\(address): \(error.message)")
        }
    }

    private mutating func decodeGLL(_ line: UnsafeBufferPointer<UInt8>, _ address: String) -> LineOutcome {
        // $--GLL,lat,N/S,lon,E/W,time,status,mode (status and mode since NMEA 2.x)
        if equals(field(line, 6), "V") || equals(field(line, 7), "N") { return .skip }
        switch NMEAFieldParser.timeOfDay(field(line, 5)) {
        case .success(let timeOfDay): return position(line, address, latitudeField: 1, time: carriedTime(timeOfDay))
        case .failure(let error): return .invalid("\(address): \(error.message)")
        }
    }

    private mutating func decodeGNS(_ line: UnsafeBufferPointer<UInt8>, _ address: String) -> LineOutcome {
        // $--GNS,time,lat,N/S,lon,E/W,mode (one letter a constellation),satellites,hdop,...
        let mode = field(line, 6)
        guard mode.contains(where: { $0 != UInt8(ascii: "N") }) else { return .skip }
        switch NMEAFieldParser.timeOfDay(field(line, 1)) {
        case .success(let timeOfDay): return position(line, address, latitudeField: 2, time: carriedTime(timeOfDay))
        case .failure(let error): return .invalid("\(address): \(error.message)")
        }
    }

    // MARK: Parts

    /// The time of day on the latest RMC's date, across midnight when it has passed.
    private func carriedTime(_ timeOfDay: TimeOfDay?) -> Timestamp? {
        guard let timeOfDay, let latestDate else { return nil }
        var day = latestDate.day
        if timeOfDay.seconds < latestDate.secondOfDay - 43_200 { day += 1 }
        if timeOfDay.seconds > latestDate.secondOfDay + 43_200 { day -= 1 }
        return Timestamp(seconds: day * 86400 + timeOfDay.seconds, nanoseconds: timeOfDay.nanoseconds)
    }

    /// The fix from the four fields latitude, N/S, longitude, E/W starting at `latitudeField`.
    private func position(_ line: UnsafeBufferPointer<UInt8>, _ address: String, latitudeField: Int, time: Timestamp?) -> LineOutcome {
        let latitude: Double
        switch NMEAFieldParser.angle(field(line, latitudeField), hemisphere: field(line, latitudeField + 1), isLatitude: true) {
        case .success(let value): latitude = value
        case .failure(let error): return .invalid("\(address): \(error.message)")
        }
        let longitude: Double
        switch NMEAFieldParser.angle(field(line, latitudeField + 2), hemisphere: field(line, latitudeField + 3), isLatitude: false) {
        case .success(let value): longitude = value
        case .failure(let error): return .invalid("\(address): \(error.message)")
        }
        let coordinate = Coordinate(latitude: latitude, longitude: longitude)
        if let reason = coordinate.invalidReason { return .invalid("\(address): \(reason)") }
        // No accuracy: HDOP is a dilution factor, not a distance in metres.
        return .fix(Fix(coordinate: coordinate, time: time))
    }

    private mutating func split(_ line: UnsafeBufferPointer<UInt8>, bodyEnd: Int) {
        fields.removeAll(keepingCapacity: true)
        var lower = 1
        var index = 1
        while index < bodyEnd {
            if line[index] == UInt8(ascii: ",") {
                fields.append(lower..<index)
                lower = index + 1
            }
            index += 1
        }
        fields.append(lower..<bodyEnd)
    }

    private func kind(of line: UnsafeBufferPointer<UInt8>) -> Kind? {
        let address = fields[0]
        guard address.count == 5 || address.count == 6, line[address.lowerBound] != UInt8(ascii: "P") else { return nil }
        let type = address.upperBound - 3
        switch (line[type], line[type + 1], line[type + 2]) {
        case (UInt8(ascii: "R"), UInt8(ascii: "M"), UInt8(ascii: "C")): return .rmc
        case (UInt8(ascii: "G"), UInt8(ascii: "G"), UInt8(ascii: "A")): return .gga
        case (UInt8(ascii: "G"), UInt8(ascii: "L"), UInt8(ascii: "L")): return .gll
        case (UInt8(ascii: "G"), UInt8(ascii: "N"), UInt8(ascii: "S")): return .gns
        default: return nil
        }
    }

    private func field(_ line: UnsafeBufferPointer<UInt8>, _ index: Int) -> UnsafeBufferPointer<UInt8> {
        guard index < fields.count else { return UnsafeBufferPointer(start: nil, count: 0) }
        return UnsafeBufferPointer(rebasing: line[fields[index]])
    }

    private func text(_ line: UnsafeBufferPointer<UInt8>, _ index: Int) -> String {
        String(decoding: field(line, index), as: UTF8.self)
    }

    private func equals(_ bytes: UnsafeBufferPointer<UInt8>, _ letter: Character) -> Bool {
        bytes.count == 1 && bytes[0] == letter.asciiValue!
    }
}
