@_spi(Inlining) import LandmarkNearCore

/// Which column of a CSV fix file holds which fix field, from its header row (names matched
/// case-insensitively with the NDJSON aliases; GPSLogger's `timestamp_ms` serves as the time
/// when there is no `time` column).
///
///     CSVColumns(header: ["time", "lat", "lon", "elevation", "accuracy"])?.latitude   // 1
struct CSVColumns: Equatable {
    static let roles: [FieldRole] = [.latitude, .longitude, .device, .time, .accuracy]

    var latitude: Int
    var longitude: Int
    var device: Int?
    var time: Int?
    var accuracy: Int?
    /// A date column beside a time-of-day `time` column (GPSBabel's unicsv: `Date`, `Time`).
    var date: Int?
    var headerCount: Int

    /// The columns, or why the header cannot be used.
    static func read(header names: [String]) -> Result<CSVColumns, CSVHeaderError> {
        var best: [FieldRole: (column: Int, rank: Int)] = [:]
        for (column, raw) in names.enumerated() {
            let name = CSVLine.normalizedHeader(raw)
            let match: (role: FieldRole, rank: Int)?
            if name == "timestamp_ms" {
                match = (.time, 9)
            } else if name == "date" || name == "utc date" || name == "utc_date" {
                match = (.date, 0)
            } else if name == "utc time" || name == "utc_time" {
                match = (.time, -2)
            } else {
                match = FieldRole.match(name).flatMap { match in
                    if match.role == .shortTime { return (.time, 0) }
                    // `time` before `t` before `tst` and `timestamp`.
                    if match.role == .time { return (.time, match.rank == 0 ? -1 : match.rank) }
                    return roles.contains(match.role) ? match : nil
                }
            }
            guard let (role, rank) = match else { continue }
            if let current = best[role], current.rank <= rank { continue }
            best[role] = (column, rank)
        }
        guard let latitude = best[.latitude]?.column else { return .failure(CSVHeaderError(missing: .latitude)) }
        guard let longitude = best[.longitude]?.column else { return .failure(CSVHeaderError(missing: .longitude)) }
        return .success(
            CSVColumns(
                latitude: latitude, longitude: longitude, device: best[.device]?.column,
                time: best[.time]?.column, accuracy: best[.accuracy]?.column,
                date: best[.time] == nil ? nil : best[.date]?.column, headerCount: names.count))
    }

    /// The highest column index a row must reach for the coordinate.
    var coordinateColumns: Int { max(latitude, longitude) }

    /// The highest column index of any field used.
    var lastUsedColumn: Int { [latitude, longitude, device ?? 0, time ?? 0, accuracy ?? 0, date ?? 0].max()! }
}

struct CSVHeaderError: Error, Equatable {
    var missing: FieldRole

    var message: String {
        "the CSV header names no \(missing.name) column (\(missing.aliases.joined(separator: ", ")))"
    }
}
