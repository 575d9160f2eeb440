/// A WGS84 position in degrees.
///
///     let turtleRock = Coordinate(latitude: 34.011286, longitude: -116.166868)
public struct Coordinate: Sendable, Hashable, CustomStringConvertible {
    public var latitude: Double
    public var longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Latitude in [-90, 90], longitude in [-180, 180], both finite.
    @inlinable
    public var isValid: Bool {
        latitude.isFinite && longitude.isFinite
            && (-90...90).contains(latitude) && (-180...180).contains(longitude)
    }

    /// Why this coordinate is not valid, or nil when it is. (Inlinable: every reader asks it
    /// of every fix, and nearly every answer is nil.)
    @inlinable
    public var invalidReason: String? {
        isValid ? nil : reasonItIsInvalid
    }

    @usableFromInline
    var reasonItIsInvalid: String? {
        if !latitude.isFinite { return "latitude is not a finite number" }
        if !longitude.isFinite { return "longitude is not a finite number" }
        if !(-90...90).contains(latitude) { return "latitude \(latitude) is outside [-90, 90]" }
        if !(-180...180).contains(longitude) { return "longitude \(longitude) is outside [-180, 180]" }
        return nil
    }

    public var description: String { "\(latitude),\(longitude)" }
}
