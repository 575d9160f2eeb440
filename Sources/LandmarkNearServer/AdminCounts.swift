/// What `/metrics` shows of the catalog and who is inside, published by the engine thread.
package struct AdminCounts: Sendable, Equatable {
    /// Landmarks in the catalog in force (empty positions not counted).
    package var landmarks: Int
    /// Changes applied over the API since start.
    package var changesApplied: Int
    /// Devices inside at least one landmark.
    package var devicesInside: Int
    /// (device, landmark) pairs inside.
    package var insidePairs: Int

    package init(landmarks: Int, changesApplied: Int, devicesInside: Int, insidePairs: Int) {
        self.landmarks = landmarks
        self.changesApplied = changesApplied
        self.devicesInside = devicesInside
        self.insidePairs = insidePairs
    }
}
