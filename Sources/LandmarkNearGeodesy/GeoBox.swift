import Foundation
@_spi(Inlining) import LandmarkNearCore

/// A longitude/latitude rectangle in degrees, with min <= max (it never wraps across ±180°).
///
///     let box = GeoBox(minLongitude: 170, minLatitude: -20, maxLongitude: 180, maxLatitude: -10)
///     box.contains(Coordinate(latitude: -15, longitude: 175))   // true
@_spi(Inlining) public struct GeoBox: Sendable, Hashable {
    public var minLongitude: Double
    public var minLatitude: Double
    public var maxLongitude: Double
    public var maxLatitude: Double

    init(minLongitude: Double, minLatitude: Double, maxLongitude: Double, maxLatitude: Double) {
        self.minLongitude = minLongitude
        self.minLatitude = minLatitude
        self.maxLongitude = maxLongitude
        self.maxLatitude = maxLatitude
    }

    /// The smallest box holding all of `coordinates` (which must not be empty).
    public init(enclosing coordinates: some Sequence<Coordinate>) {
        var box = GeoBox(
            minLongitude: .infinity, minLatitude: .infinity,
            maxLongitude: -.infinity, maxLatitude: -.infinity)
        for c in coordinates {
            box.minLongitude = min(box.minLongitude, c.longitude)
            box.maxLongitude = max(box.maxLongitude, c.longitude)
            box.minLatitude = min(box.minLatitude, c.latitude)
            box.maxLatitude = max(box.maxLatitude, c.latitude)
        }
        self = box
    }

    func contains(_ c: Coordinate) -> Bool {
        (minLongitude...maxLongitude).contains(c.longitude) && (minLatitude...maxLatitude).contains(c.latitude)
    }

    static let world = GeoBox(minLongitude: -180, minLatitude: -90, maxLongitude: 180, maxLatitude: 90)
}
