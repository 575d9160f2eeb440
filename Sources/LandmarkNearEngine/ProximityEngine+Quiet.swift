@_spi(Inlining) import LandmarkNearCore

/// Quiet hours (docs/reference/engine.md): a notification whose fix time falls in the device's
/// daily window of local time is suppressed as `quiet`.
///
/// Asked only when a notification is about to be decided (an enter or a dwell that the profile
/// did not already suppress), never per fix: a run without `quietHours` pays one test of an
/// empty dictionary per enter, and a device with them one lookup and one zone offset (a binary
/// search of its transitions, or the footer's rule: well under a microsecond).
extension ProximityEngine {
    /// Whether `time` is in the quiet hours of the device at `slot`. An untimed fix never is:
    /// it has no local time.
    @inline(__always)
    func inQuietHours(slot: Int, at time: Timestamp?) -> Bool {
        guard let time, let position = quietHoursBySlot[Int32(slot)] else { return false }
        return quietHoursTable[Int(position)].contains(time)
    }

    /// For `--explain`: the quiet hours of `device`, when its profile has them.
    package func quietHours(ofDevice device: String) -> QuietHours? {
        guard let position = profileSlots.isEmpty ? nil : profileSlots[DeviceKey(device)]?.quietHours, position >= 0 else {
            return nil
        }
        return quietHoursTable[Int(position)]
    }
}
