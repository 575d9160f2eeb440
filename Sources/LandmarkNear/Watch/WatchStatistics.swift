/// Counts for the summary line `watch` prints on stderr at the end.
public struct WatchStatistics: Sendable, Equatable {
    /// Records read: fixes plus unreadable records.
    public var recordsRead = 0
    /// Unreadable records (skipped, reported on stderr).
    public var unreadable = 0
    public var used = 0
    public var dropped: [DropReason: Int] = [:]
    public var enters = 0
    public var exits = 0
    public var notifications = 0
    public var suppressed: [ProximityEvent.Suppression: Int] = [:]
    public var devices = 0
    public var apnsFilesWritten = 0

    public init() {}

    /// `landmark-near watch: 120 fixes read, 117 used; dropped: 1 unreadable, 1 accuracy, 1 stale; 3 notifications (4 enters, 1 suppressed by cooldown; 1 exit); 2 devices`
    public var summary: String {
        var text = "\(recordsRead) \(recordsRead == 1 ? "fix" : "fixes") read, \(used) used; dropped: \(unreadable) unreadable"
        for reason in DropReason.allCases where reason != .invalid || dropped[reason, default: 0] > 0 {
            text += ", \(dropped[reason, default: 0]) \(reason.rawValue)"
        }
        text += "; \(notifications) notification\(notifications == 1 ? "" : "s")"
        text += " (\(enters) enter\(enters == 1 ? "" : "s")"
        for reason in [ProximityEvent.Suppression.cooldown, .profile] where suppressed[reason, default: 0] > 0 {
            text += ", \(suppressed[reason, default: 0]) suppressed by \(reason.rawValue)"
        }
        text += "; \(exits) exit\(exits == 1 ? "" : "s")); \(devices) device\(devices == 1 ? "" : "s")"
        if apnsFilesWritten > 0 { text += "; \(apnsFilesWritten) .apns file\(apnsFilesWritten == 1 ? "" : "s") written" }
        return text
    }
}
