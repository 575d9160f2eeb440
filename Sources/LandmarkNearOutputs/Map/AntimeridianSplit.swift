@_spi(Inlining) import LandmarkNearCore

/// Splits a line at ±180° as RFC 7946 §3.1.9 asks: where consecutive positions are more than
/// 180° of longitude apart, the line is taken to cross the antimeridian (the short way round);
/// it ends at the crossing, interpolated on the segment, and goes on from the other side.
///
///     AntimeridianSplit.lines([Coordinate(latitude: 0, longitude: 179),
///                              Coordinate(latitude: 2, longitude: -179)])
///     // [[179,0 -> 180,1], [-180,1 -> -179,2]] (as lon,lat)
enum AntimeridianSplit {
    /// - Parameter crossing: the latitude at which the edge between two positions crosses
    ///   ±180°, given the latitude of the straight line there (what a track is cut at).
    static func lines(_ points: [Coordinate], crossing: (Coordinate, Coordinate, Double) -> Double = { _, _, guess in guess })
        -> [[Coordinate]]
    {
        var parts: [[Coordinate]] = []
        var current: [Coordinate] = []
        for point in points {
            if let last = current.last, abs(point.longitude - last.longitude) > 180 {
                // Unwrap the next point next to the last one, then cut at the meridian.
                let eastward = point.longitude < last.longitude
                let edge: Double = eastward ? 180 : -180
                let unwrapped = point.longitude + (eastward ? 360 : -360)
                let t = (edge - last.longitude) / (unwrapped - last.longitude)
                let latitude = crossing(last, point, last.latitude + t * (point.latitude - last.latitude))
                current.append(Coordinate(latitude: latitude, longitude: edge))
                parts.append(current)
                current = [Coordinate(latitude: latitude, longitude: -edge)]
            }
            if current.last != point { current.append(point) }
        }
        parts.append(current)
        return parts.compactMap { part in
            var distinct: [Coordinate] = []
            for p in part where distinct.last != p { distinct.append(p) }
            return distinct.count >= 2 ? distinct : nil
        }
    }
}
