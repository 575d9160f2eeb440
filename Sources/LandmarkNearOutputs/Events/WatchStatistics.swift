import LandmarkNearEngine

/// Counts for the summary line `watch` prints on stderr at the end.
public struct WatchStatistics: Sendable, Equatable {
    /// Records read: fixes plus unreadable records.
    public var recordsRead = 0
    /// Unreadable records (skipped, reported on stderr).
    public var unreadable = 0
    public var used = 0
    public var dropped: [DropReason: Int] = [:]
    package var enters = 0
    package var exits = 0
    /// `dwell` events (`--dwell`), notified or suppressed.
    package var dwells = 0
    /// Enters found between two fixes (`--crossing`).
    package var crossings = 0
    public var notifications = 0
    /// Notifications decided but never emitted (printed, written, handed to the deliveries):
    /// the run failed first (a state commit on a full disk, an `.apns` file that could not be
    /// written). The summary then says how many of the decided went out.
    public var unemitted = 0
    package var suppressed: [ProximityEvent.Suppression: Int] = [:]
    public var devices = 0
    package var apnsFilesWritten = 0
    /// NMEA position sentences that carried no fix (RMC status V, GGA quality 0, ...) and
    /// sentences of other types: skipped, not errors.
    package var sentencesWithoutFix = 0
    /// KML `LineString` coordinates not read because the document holds a `gx:Track`: the same
    /// track drawn again (docs/reference/fixes.md#kml).
    package var lineStringCoordinatesSkipped = 0
    /// Stale fixes (counted in `dropped[.stale]` too) from NMEA whose time is that of the
    /// device's latest used fix: the RMC, GGA, GLL and GNS of one second are each a fix
    /// (docs/reference/fixes.md), so all but the first of each second are dropped as stale, and the summary says that
    /// nothing was lost.
    package var nmeaSameSecond = 0
    /// Stale fixes of other inputs whose time is that of the device's latest used fix.
    package var sameTime = 0
    /// Inputs that gave no fix and no error, each with a warning saying why.
    package var warnings = 0
    /// Of those, inputs read with a format forced by `--format`: an error (exit 65), since the
    /// user said what the input is and it held nothing of that format.
    package var forcedFormatReadNothing = 0
    /// Notifications an earlier run decided and did not mark done, emitted again at start.
    package var reemitted = 0
    /// Why the run ended before the end of its input, if it did.
    public var stoppedBy: WatchStop?

    public init() {}

    /// Counts one event of the engine: an exit, or an enter that notified or was suppressed.
    @inline(__always)
    package mutating func count(_ event: ProximityEvent) {
        switch event.kind {
        case .exit: exits += 1
        case .enter, .dwell:
            if event.kind == .enter { enters += 1 } else { dwells += 1 }
            if event.via == .crossing { crossings += 1 }
            if let suppression = event.suppression {
                suppressed[suppression, default: 0] += 1
            } else {
                notifications += 1
            }
        }
    }

    /// `landmark-near watch: 120 fixes read, 117 used; dropped: 1 unreadable, 1 accuracy, 1 stale; 3 notifications (4 enters, 1 suppressed by cooldown; 1 exit); 2 devices`,
    /// then what else happened: `; 500 stale fixes repeat the time of a used fix (NMEA's ...)`,
    /// `; 51 NMEA sentences without a fix`, ...
    public var summary: String {
        var text = "\(recordsRead) \(recordsRead == 1 ? "fix" : "fixes") read, \(used) used; dropped: \(unreadable) unreadable"
        for reason in DropReason.allCases where reason != .invalid || dropped[reason, default: 0] > 0 {
            text += ", \(dropped[reason, default: 0]) \(reason.rawValue)"
        }
        text += "; \(notifications) notification\(notifications == 1 ? "" : "s")"
        if unemitted > 0 { text += " decided, \(notifications - unemitted) emitted" }
        text += " (\(enters) enter\(enters == 1 ? "" : "s")"
        if crossings > 0 { text += ", \(crossings) of them passed between fixes" }
        if dwells > 0 { text += ", \(dwells) dwell\(dwells == 1 ? "" : "s")" }
        for reason in [ProximityEvent.Suppression.dwell, .cooldown, .profile, .quiet] where suppressed[reason, default: 0] > 0 {
            switch reason {
            case .dwell: text += ", \(suppressed[reason, default: 0]) waiting to dwell"
            case .quiet: text += ", \(suppressed[reason, default: 0]) suppressed by quiet hours"
            default: text += ", \(suppressed[reason, default: 0]) suppressed by \(reason.rawValue)"
            }
        }
        text += "; \(exits) exit\(exits == 1 ? "" : "s")); \(devices) device\(devices == 1 ? "" : "s")"
        if nmeaSameSecond > 0 {
            text +=
                "; \(nmeaSameSecond) stale \(nmeaSameSecond == 1 ? "fix repeats" : "fixes repeat") the time of a used fix"
                + " (NMEA's RMC and GGA of one second: one moment reported twice, nothing lost)"
        }
        if sameTime > 0 {
            text += "; \(sameTime) stale \(sameTime == 1 ? "fix repeats" : "fixes repeat") the time of a used fix"
        }
        if sentencesWithoutFix > 0 {
            text += "; \(sentencesWithoutFix) NMEA sentence\(sentencesWithoutFix == 1 ? "" : "s") without a fix"
        }
        if lineStringCoordinatesSkipped > 0 {
            let count = lineStringCoordinatesSkipped
            text += "; \(count) KML LineString coordinate\(count == 1 ? "" : "s") not read (the gx:Track holds the same track)"
        }
        if apnsFilesWritten > 0 { text += "; \(apnsFilesWritten) .apns file\(apnsFilesWritten == 1 ? "" : "s") written" }
        if reemitted > 0 { text += "; \(reemitted) undone notification\(reemitted == 1 ? "" : "s") of an earlier run emitted again" }
        switch stoppedBy {
        case .signal(let number)?: text += "; interrupted by \(WatchStop.name(ofSignal: number))"
        case .outputClosed?: text += "; stopped: stdout was closed"
        case nil: break
        }
        return text
    }
}

/// Why a run ended before the end of its input.
public enum WatchStop: Sendable, Equatable {
    /// SIGINT or SIGTERM (exit 128 + the number).
    case signal(Int32)
    /// The reader of stdout went away (exit 0).
    case outputClosed

    static func name(ofSignal number: Int32) -> String {
        switch number {
        case 1: return "SIGHUP"
        case 2: return "SIGINT"
        case 15: return "SIGTERM"
        default: return "signal \(number)"
        }
    }
}
