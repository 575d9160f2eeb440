import LandmarkNearCore

/// One row of the notification log (`notifications` in the state database): what was
/// decided, with everything needed to emit it again after a crash.
public struct NotificationRecord: Sendable, Equatable {
    /// Stable id, 1, 2, ... in decision order; `deliveries` rows refer to it.
    public var id: Int64
    public var device: String
    public var landmarkID: Int
    public var landmarkIndex: Int
    public var landmarkName: String
    public var fixTime: Timestamp?
    /// The device's fix number (names `.apns` files of untimed fixes).
    public var fixNumber: Int
    public var coordinate: Coordinate
    public var distance: Double
    /// The APNs payload (docs/reference/payloads.md).
    public var payload: String
    /// The stdout line (docs/reference/output.md), printed again as is when the notification is re-emitted.
    public var line: String
    /// The `.apns` file name for it (written when the run has `--apns-dir`).
    public var apnsFileName: String

    public init(
        id: Int64, device: String, landmarkID: Int, landmarkIndex: Int, landmarkName: String,
        fixTime: Timestamp?, fixNumber: Int, coordinate: Coordinate, distance: Double,
        payload: String, line: String, apnsFileName: String
    ) {
        self.id = id
        self.device = device
        self.landmarkID = landmarkID
        self.landmarkIndex = landmarkIndex
        self.landmarkName = landmarkName
        self.fixTime = fixTime
        self.fixNumber = fixNumber
        self.coordinate = coordinate
        self.distance = distance
        self.payload = payload
        self.line = line
        self.apnsFileName = apnsFileName
    }
}
