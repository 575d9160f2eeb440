@_spi(Inlining) import LandmarkNearCore
import LandmarkNearEngine

/// Who is where, for `serve`'s "who is inside now" (`GET /devices/DEVICE`, `GET
/// /landmarks/ID/inside`, `landmark-near devices`): each device's latest used fix and since
/// when it is inside each landmark (the time of the fix that entered). The engine decides who
/// is inside; this only remembers what the engine does not need: one dictionary entry a
/// device (bounded by the devices, like the engine's table), updated once a used fix, which
/// `serve`'s HTTP cost (thousands of times a fix's) hides. `watch` keeps none.
struct Whereabouts {
    struct Device {
        var fix: Coordinate?
        var time: Timestamp?
        /// By landmark id: since when inside (nil: entered by an untimed fix).
        var since: [Int: Timestamp?] = [:]
    }

    private(set) var devices: [DeviceKey: Device] = [:]

    subscript(device: String) -> Device? { devices[DeviceKey(device)] }

    /// A used fix and its events (enters start an inside time, exits end it).
    mutating func record(_ fix: Fix, events: [ProximityEvent], catalog: LandmarkCatalog) {
        Self.record(fix, events: events, catalog: catalog, in: &devices[DeviceKey(fix.device), default: Device()])
    }

    /// On the device's entry in place: one hash lookup a fix, and its `since` table is not
    /// copied.
    private static func record(_ fix: Fix, events: [ProximityEvent], catalog: LandmarkCatalog, in device: inout Device) {
        device.fix = fix.coordinate
        device.time = fix.time
        for event in events {
            switch event.kind {
            // A crossing's enter happened at its interpolated time.
            case .enter:
                // Typed, so that `??` does not make a `.some(nil)` of an untimed event.
                let since: Timestamp? = event.time ?? fix.time
                device.since[catalog.id(at: event.landmarkIndex)] = .some(since)
            case .exit: device.since[catalog.id(at: event.landmarkIndex)] = nil
            case .dwell: break
            }
        }
    }

    /// What a saved device said (a start with `--state`).
    mutating func restore(_ snapshot: DeviceSnapshot) {
        var device = Device(fix: snapshot.latestFix, time: snapshot.latestFixTime)
        for favorite in snapshot.favorites where favorite.isInside { device.since[favorite.landmarkID] = favorite.since }
        devices[DeviceKey(snapshot.device)] = device
    }

    /// Adds what this keeps to a snapshot the engine made (before it is saved or shown).
    func annotate(_ snapshot: inout DeviceSnapshot) {
        guard let device = devices[DeviceKey(snapshot.device)] else { return }
        snapshot.latestFix = device.fix
        snapshot.latestFixTime = device.time
        for index in snapshot.favorites.indices where snapshot.favorites[index].isInside {
            snapshot.favorites[index].since = device.since[snapshot.favorites[index].landmarkID] ?? nil
        }
    }
}
