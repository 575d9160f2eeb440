@_spi(Inlining) import LandmarkNearCore
import LandmarkNearDelivery
import LandmarkNearEngine
import LandmarkNearOutputs

/// An output decided and not yet emitted.
package enum PlannedOutput {
    /// An event line without a payload (an exit, a suppressed enter), keyed for webhooks.
    case line(String, NotificationKey)
    /// A notification: its line, payload and `.apns` file name, and with `--state` its row
    /// of the notification log.
    case notification(NotificationRecord)
}

/// The output plan: what each event becomes. A notification gets its payload (built once per
/// landmark), its event line, its `.apns` file name and, with `--state`, a log id; an exit or a
/// suppressed enter (with `--events all`) its line. Planned outputs wait here until the group
/// commit takes them, except in a run that only prints (no state, files or deliveries), where
/// each line is written into stdout's buffer as it is made, never held as a `String`
/// (`EventLine.write`).
struct OutputPlan {
    private var payloads: PayloadCache
    private var pending: [PlannedOutput] = []
    /// `--events all`: exits and suppressed enters print too, and enters carry `notified`.
    let printsEveryEvent: Bool
    /// Nothing but stdout to serve: no state, no `.apns` files, no deliveries, no publisher.
    let printsOnly: Bool
    /// `.apns` names are made for `--apns-dir`, and for the log with `--state`.
    let namesFiles: Bool

    /// `publishes`: lines also go to an `EventLinePublisher` (they are held until the commit).
    init(options: WatchOptions, keepsState: Bool, publishes: Bool = false) {
        payloads = PayloadCache(options: options.payload)
        printsEveryEvent = options.events == .all
        printsOnly = options.apnsDirectory == nil && !options.delivery.isEnabled && !keepsState && !publishes
        namesFiles = options.apnsDirectory != nil || keepsState
    }

    var pendingCount: Int { pending.count }

    /// What waits, handed over; the plan is empty after.
    mutating func takePending() -> [PlannedOutput] {
        guard !pending.isEmpty else { return [] }
        let batch = pending
        pending = []
        return batch
    }

    /// A catalog change (a reload) drops the payloads made for the old one.
    mutating func catalogChanged(options: WatchOptions) {
        payloads = PayloadCache(options: options.payload)
    }

    /// Plans one event of `fix` (a notification, or any event with `--events all`); true when
    /// its line was printed at once (a run that only prints).
    mutating func add(
        _ event: ProximityEvent, of fix: Fix, fixNumber: Int, catalog: LandmarkCatalog, emitters: Emitters,
        takeID: () -> Int64
    ) -> Bool {
        // A pass between fixes happened at its own point and time.
        let time = event.time ?? fix.time
        // The two fields a line shows, not the whole `Landmark` (see `EventLine.make`).
        let landmarkID = catalog.id(at: event.landmarkIndex)
        let landmarkName = catalog.name(at: event.landmarkIndex)
        // Only notifications carry a payload.
        let payload =
            event.isNotification
            ? payloads.json(forLandmarkAt: event.landmarkIndex, named: landmarkName, radius: catalog.radius(at: event.landmarkIndex))
            : nil
        if printsOnly {
            EventLine.write(
                event: event, fix: fix, landmarkID: landmarkID, landmarkName: landmarkName, payload: payload,
                includeNotified: printsEveryEvent, to: emitters.output)
            return true
        }
        let line = EventLine.make(
            event: event, fix: fix, landmarkID: landmarkID, landmarkName: landmarkName, payload: payload,
            includeNotified: printsEveryEvent)
        guard let payload else {
            let key = NotificationKey(
                device: fix.device, landmarkID: landmarkID, time: time, fixNumber: fixNumber,
                event: event.kind == .exit ? "exit" : "suppressed")
            pending.append(.line(line, key))
            return false
        }
        let fileName =
            namesFiles ? APNsFileName.make(device: fix.device, landmarkID: landmarkID, time: time, fixNumber: fixNumber) : ""
        pending.append(
            .notification(
                NotificationRecord(
                    id: takeID(), device: fix.device, landmarkID: landmarkID, landmarkIndex: event.landmarkIndex,
                    landmarkName: landmarkName, fixTime: time, fixNumber: fixNumber, coordinate: event.point ?? fix.coordinate,
                    distance: event.distance, payload: payload, line: line, apnsFileName: fileName)))
        return false
    }
}
