/// One location report of one device (SPEC §3).
///
///     let fix = Fix(device: "d1", coordinate: Coordinate(latitude: 34.0, longitude: -116.1),
///                   time: Timestamp(seconds: 1_777_636_802), accuracy: 12)
public struct Fix: Sendable, Equatable {
    public static let defaultDevice = "default"

    public var device: String
    public var coordinate: Coordinate
    public var time: Timestamp?
    /// Horizontal accuracy in metres; nil when unknown (inputs with 0 or negative values).
    public var accuracy: Double?

    public init(device: String = Fix.defaultDevice, coordinate: Coordinate, time: Timestamp? = nil, accuracy: Double? = nil) {
        self.device = device
        self.coordinate = coordinate
        self.time = time
        if let accuracy, accuracy > 0, accuracy.isFinite {
            self.accuracy = accuracy
        } else {
            self.accuracy = nil
        }
    }
}
