import LandmarkNearDelivery
import LandmarkNearEngine
import LandmarkNearOutputs
import LandmarkNearReaders

/// Everything `landmark-near watch` can be told (docs/reference/engine.md, docs/reference/output.md, docs/reference/state.md).
public struct WatchOptions: Sendable {
    /// Which events reach stdout.
    public enum EventSelection: String, Sendable {
        /// Only notifications (unsuppressed enters).
        case notifications
        /// Enters (notified or suppressed) and exits.
        case all
    }

    public var engine = EngineConfiguration()
    public var payload = PayloadOptions()
    public var events: EventSelection = .notifications
    /// Stop at the first unreadable record (exit 65).
    public var strict = false
    /// Explain on stderr, for each fix, why it did or did not notify.
    public var explain = false
    /// Also write each notification's payload as an `.apns` file here.
    public var apnsDirectory: String?
    /// Force an input format instead of detecting it.
    public var format: FixFormat?
    /// Flush stdout after every fix that printed something even when the input is a regular
    /// file (live inputs are always flushed per notification).
    package var flushEachEvent = false
    /// `--push apns` and `--webhook`: where notifications are delivered besides stdout.
    package var delivery = DeliveryOptions()
    /// Where the catalog and profiles came from: SIGHUP reads them again.
    package var landmarksPath: String?
    package var profilesPath: String?
    /// The command the session runs for, as its stderr lines start (deliveries, SIGHUP).
    package var commandName = "landmark-near watch"

    public init() {}
}
