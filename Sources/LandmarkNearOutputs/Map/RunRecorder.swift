@_spi(Inlining) import LandmarkNearCore
import LandmarkNearEngine

/// Collects what a watch run did, for drawing it (`landmark-near map`, `watch --geojson`): each
/// device's used fixes in order, and every event (notified, suppressed or exit) with the fix
/// that caused it. Attach it to a session with `session.fixObserver = recorder.observe`.
///
///     let recorder = RunRecorder()
///     session.fixObserver = { fix, disposition, events in recorder.record(fix, disposition, events) }
package final class RunRecorder {
    /// One used fix of a device's track.
    package struct TrackPoint: Sendable, Equatable {
        package var coordinate: Coordinate
        package var time: Timestamp?
    }

    /// An event with the fix that caused it.
    package struct Event: Sendable, Equatable {
        package var event: ProximityEvent
        /// Index into `devices` / `tracks`.
        package var device: Int
        /// Position of the causing fix in that device's track (kept when the track is thinned).
        package var trackIndex: Int
        package var coordinate: Coordinate
        package var time: Timestamp?
    }

    /// Device names in the order of their first used fix.
    package private(set) var devices: [String] = []
    /// `tracks[i]` holds the used fixes of `devices[i]`, in input order.
    package private(set) var tracks: [[TrackPoint]] = []
    package private(set) var events: [Event] = []
    private var deviceNumbers: [String: Int] = [:]

    package init() {}

    /// The total number of used fixes recorded.
    package var fixCount: Int { tracks.reduce(0) { $0 + $1.count } }

    /// Records one decided fix; dropped fixes (stale, inaccurate) are not part of a track.
    package func record(_ fix: Fix, _ disposition: FixDisposition, _ fixEvents: [ProximityEvent]) {
        guard disposition == .used else { return }
        let device: Int
        if let known = deviceNumbers[fix.device] {
            device = known
        } else {
            device = devices.count
            deviceNumbers[fix.device] = device
            devices.append(fix.device)
            tracks.append([])
        }
        let trackIndex = tracks[device].count
        tracks[device].append(TrackPoint(coordinate: fix.coordinate, time: fix.time))
        for event in fixEvents {
            events.append(
                Event(
                    event: event, device: device, trackIndex: trackIndex, coordinate: event.point ?? fix.coordinate,
                    time: event.time ?? fix.time))
        }
    }
}
