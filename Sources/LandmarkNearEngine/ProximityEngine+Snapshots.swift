@_spi(Inlining) import LandmarkNearCore

/// Snapshots of the devices' states in terms that outlive a run (landmark ids), for `--state`
/// and reloads.
extension ProximityEngine {
    /// The devices changed since the last call (every fix changes its device's counter), and
    /// forgets that they changed. Only collected while `tracksChanges` is on.
    package func takeChanges() -> [DeviceSnapshot] {
        defer { changed.removeAll(keepingCapacity: true) }
        return changed.map { device, slot in
            var snapshot = snapshot(device: device, slot: Int(slot))
            snapshot.favoritesChanged = devices[Int(slot)].favoritesChanged
            devices[Int(slot)].clearChanged()
            return snapshot
        }
    }

    /// Every device's state, in no particular order.
    package func snapshots() -> [DeviceSnapshot] {
        deviceTable.names.indices.map { snapshot(device: deviceTable.names[$0], slot: $0) }
    }

    /// One device's state (`serve`'s `GET /devices/DEVICE`); nil for a device never seen.
    package func snapshot(of device: String) -> DeviceSnapshot? {
        deviceTable.existingSlot(for: device).map { snapshot(device: device, slot: Int($0)) }
    }

    /// How many devices are inside at least one favourite, and how many (device, favourite)
    /// pairs are inside: one pass over every device's few entries, no allocation (`/metrics`
    /// asks at most once a second).
    package func insideCounts() -> (devices: Int, pairs: Int) {
        var counted = (devices: 0, pairs: 0)
        for slot in 0..<devices.count {
            let state = devices[slot]
            var inside = 0
            for position in 0..<state.entryCount where state[entry: position].isInside { inside += 1 }
            if inside > 0 { counted.devices += 1 }
            counted.pairs += inside
        }
        return counted
    }

    private func snapshot(device: String, slot: Int) -> DeviceSnapshot {
        let state = devices[slot]
        var favoritesOut: [FavoriteSnapshot] = []
        for position in 0..<state.entryCount {
            let entry = state[entry: position]
            guard entry.isInside || entry.isNotified else { continue }
            var favorite = FavoriteSnapshot(
                landmarkID: catalog[favorites[Int(entry.favorite)]].id,
                isInside: entry.isInside, isNotified: entry.isNotified,
                notifiedTime: entry.notifiedTime)
            if tracksMotion { favorite.enteredAt = motions[slot].dwells.first { $0.favorite == entry.favorite }?.enteredAt }
            favoritesOut.append(favorite)
        }
        var snapshot = DeviceSnapshot(
            device: device, latestTime: state.latestTime, fixCount: Int(state.fixCount),
            favorites: favoritesOut)
        if tracksMotion { snapshot.previousFix = motions[slot].previous?.coordinate }
        return snapshot
    }

    /// Takes over a device's saved state (replacing what the engine has for it). Landmarks that
    /// are not (or no longer) among the device's favourites are forgotten; returns false when
    /// something was, and then counts the device as changed.
    @discardableResult
    package func restore(_ snapshot: DeviceSnapshot) -> Bool {
        let slot = deviceSlot(for: snapshot.device, hash: 0)
        let profile = profileSlots[DeviceKey(snapshot.device)]
        var state = DeviceState(favoriteSet: profile?.set ?? 0, prefersNotifications: profile?.prefersNotifications ?? true)
        state.latestTime = snapshot.latestTime
        state.fixCount = UInt32(clamping: snapshot.fixCount)
        let membership = favoriteSets[Int(state.favoriteSet)]
        var complete = true
        var motion = MotionState()
        motion.setPrevious(snapshot.previousFix, time: snapshot.latestTime)
        for favorite in snapshot.favorites {
            guard let index = catalog.index(ofID: favorite.landmarkID), let position = Self.position(of: index, in: favorites),
                membership?[position] ?? true
            else {
                complete = false
                continue
            }
            let entry = state.positionCreating(Int32(position))
            state[entry: entry].isInside = favorite.isInside
            if favorite.isInside, let enteredAt = favorite.enteredAt, dwell != nil { motion.startDwell(of: Int32(position), at: enteredAt) }
            if favorite.isNotified {
                state[entry: entry].isNotified = true
                state[entry: entry].notifiedTime = favorite.notifiedTime
            }
        }
        state.compact()
        devices[slot] = state
        if tracksMotion { motions[slot] = motion }
        if !complete, tracksChanges, devices[slot].markChanged(favorites: true) {
            changed.append((snapshot.device, Int32(slot)))
        }
        return complete
    }
}
