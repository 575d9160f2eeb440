@_spi(Inlining) import LandmarkNearCore

extension Length {
    /// The radius as the notification body says it: `5mi` -> "5 miles", `1mi` -> "1 mile",
    /// `2.5mi` -> "2.5 miles", `8km` -> "8 km", `500m` -> "500 m", `1ft` -> "1 foot", `3nm` -> "3 nautical miles".
    ///
    ///     try Length(parsing: "5.0mi").phrase   // "5 miles"
    package var phrase: String {
        let isOne = writtenValue == "1"
        switch unit {
        case .miles: return writtenValue + (isOne ? " mile" : " miles")
        case .kilometers: return writtenValue + " km"
        case .meters: return writtenValue + " m"
        case .feet: return writtenValue + (isOne ? " foot" : " feet")
        case .nauticalMiles: return writtenValue + (isOne ? " nautical mile" : " nautical miles")
        }
    }
}
