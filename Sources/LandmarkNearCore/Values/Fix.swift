/// One location report of one device (docs/reference/fixes.md).
///
///     let fix = Fix(device: "d1", coordinate: Coordinate(latitude: 34.0, longitude: -116.1),
///                   time: Timestamp(seconds: 1_777_636_802), accuracy: 12)
public struct Fix: Sendable, Equatable {
    public static let defaultDevice = "default"

    public var device: String {
        didSet { deviceHash = 0 }
    }
    public var coordinate: Coordinate
    public var time: Timestamp?
    /// Horizontal accuracy in metres; nil when unknown (inputs with 0 or negative values).
    public var accuracy: Double?
    /// `DeviceNameHash.of(device)` when the reader computed it, else 0 (the engine hashes the
    /// name itself). Not part of the fix's value: it is derived from `device`, and reset when
    /// `device` changes.
    @usableFromInline package var deviceHash: UInt64 = 0

    @inlinable
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

    public static func == (lhs: Fix, rhs: Fix) -> Bool {
        lhs.device == rhs.device && lhs.coordinate == rhs.coordinate && lhs.time == rhs.time && lhs.accuracy == rhs.accuracy
    }
}
