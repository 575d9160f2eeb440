@_spi(Inlining) import LandmarkNearCore

/// One row of the notification log (`notifications` in the state database): what was
/// decided, with everything needed to emit it again after a crash.
package struct NotificationRecord: Sendable, Equatable {
    /// Stable id, 1, 2, ... in decision order; `deliveries` rows refer to it.
    package var id: Int64
    package var device: String
    package var landmarkID: Int
    package var landmarkIndex: Int
    package var landmarkName: String
    package var fixTime: Timestamp?
    /// The device's fix number (names `.apns` files of untimed fixes).
    package var fixNumber: Int
    package var coordinate: Coordinate
    package var distance: Double
    /// The APNs payload (docs/reference/payloads.md).
    package var payload: String
    /// The stdout line (docs/reference/output.md), printed again as is when the notification is re-emitted.
    package var line: String
    /// The `.apns` file name for it (written when the run has `--apns-dir`).
    package var apnsFileName: String

    package init(
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
