@_spi(Inlining) import LandmarkNearCore

/// A GPX point element being read: its `lat`/`lon` attributes and `<time>` text, turned into
/// a fix when the element ends.
struct GPXPoint {
    /// `trkpt`, `rtept` or `wpt`.
    var element: String
    var line: Int
    var latitude: [UInt8]?
    var longitude: [UInt8]?
    var time: [UInt8] = []
    var hasTime = false

    /// Longest `<time>` text kept; anything longer is not a date-time anyway.
    static let maximumTimeLength = 64

    enum Outcome: Equatable {
        case fix(Fix)
        case invalid(String)
    }

    func fix() -> Outcome {
        let latitude: Double
        switch number(self.latitude, "lat") {
        case .success(let value): latitude = value
        case .failure(let problem): return .invalid(problem.message)
        }
        let longitude: Double
        switch number(self.longitude, "lon") {
        case .success(let value): longitude = value
        case .failure(let problem): return .invalid(problem.message)
        }
        let coordinate = Coordinate(latitude: latitude, longitude: longitude)
        if let reason = coordinate.invalidReason { return .invalid("<\(element)>: \(reason)") }
        var timestamp: Timestamp?
        if hasTime {
            let trimmed = ASCIIBlanks.whitespace.trimming(time)
            if !trimmed.isEmpty {
                timestamp = trimmed.withUnsafeBufferPointer { Timestamp(rfc3339UTF8: $0) }
                if timestamp == nil || time.count > GPXPoint.maximumTimeLength {
                    let shown = String(decoding: trimmed.prefix(GPXPoint.maximumTimeLength), as: UTF8.self)
                    return .invalid("<\(element)>: time \"\(shown)\" is not an RFC 3339 date-time")
                }
            }
        }
        return .fix(Fix(coordinate: coordinate, time: timestamp))
    }

    private struct Problem: Error { var message: String }

    private func number(_ attribute: [UInt8]?, _ name: String) -> Result<Double, Problem> {
        guard let attribute else { return .failure(Problem(message: "<\(element)> has no \(name) attribute")) }
        guard let value = attribute.withUnsafeBufferPointer({ DecimalNumber.parse($0) }) else {
            let shown = String(decoding: attribute.prefix(40), as: UTF8.self)
            return .failure(Problem(message: "<\(element)> \(name) \"\(shown)\" is not a number"))
        }
        return .success(value)
    }
}
