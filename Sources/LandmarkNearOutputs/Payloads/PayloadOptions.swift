@_spi(Inlining) import LandmarkNearCore

/// What a notification payload says besides the landmark: the radius phrase, the APNs
/// `thread-id`, and an optional Simulator bundle id (docs/reference/payloads.md).
///
///     var options = PayloadOptions(radius: try Length(parsing: "8km"))
///     options.bundleID = "com.example.apple-samplecode.Landmarks.watchkitapp"
public struct PayloadOptions: Sendable, Hashable {
    /// The radius the body names ("You are within 5 miles of ...").
    public var radius: Length = .fiveMiles
    /// The `aps.thread-id` that groups the notifications ("5280", as in the tutorial).
    public var threadID: String = "5280"
    /// When set, `"Simulator Target Bundle"` comes first so `xcrun simctl push` can use the file.
    public var bundleID: String? = nil

    public init(radius: Length = .fiveMiles, threadID: String = "5280", bundleID: String? = nil) {
        self.radius = radius
        self.threadID = threadID
        self.bundleID = bundleID
    }
}

extension PayloadOptions {
    /// Throws when these options leave no room in 4096 bytes even for a name shortened to "…"
    /// at index `maximumIndex` (a huge `threadID` or `bundleID`): check once, before a run.
    ///
    ///     try PayloadOptions(bundleID: String(repeating: "x", count: 5000)).checkFits()   // throws
    package func checkFits(maximumIndex: Int = Int.max) throws(PayloadError) {
        let needed = PayloadBuilder(options: self).overheadBytes(index: maximumIndex) + 2 * APNsPayload.ellipsis.utf8.count
        if needed > APNsPayload.maximumBytes {
            throw PayloadError(minimumBytes: needed)
        }
    }
}
