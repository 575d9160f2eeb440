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

    /// The distinct quiet hours of `profiles`, and the position among them of each device's
    /// that has some.
    static func quietHoursTable(of profiles: DeviceProfiles) -> (table: [QuietHours], positions: [DeviceKey: Int32]) {
        var table: [QuietHours] = []
        var positionOfQuietHours: [QuietHours: Int32] = [:]
        var positions: [DeviceKey: Int32] = [:]
        for (device, profile) in profiles.entries {
            guard let quietHours = profile.quietHours else { continue }
            if let position = positionOfQuietHours[quietHours] {
                positions[device] = position
            } else {
                table.append(quietHours)
                positionOfQuietHours[quietHours] = Int32(table.count - 1)
                positions[device] = Int32(table.count - 1)
            }
        }
        return (table, positions)
    }

    /// For `--explain`: the quiet hours of `device`, when its profile has them.
    package func quietHours(ofDevice device: String) -> QuietHours? {
        guard let position = profileSlots.isEmpty ? nil : profileSlots[DeviceKey(device)]?.quietHours, position >= 0 else {
            return nil
        }
        return quietHoursTable[Int(position)]
    }
}
