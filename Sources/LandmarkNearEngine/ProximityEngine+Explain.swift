@_spi(Inlining) import LandmarkNearCore
@_spi(Inlining) import LandmarkNearGeodesy

extension ProximityEngine {
    /// For `--explain`: the device's nearest favourite to `coordinate`, and whether the
    /// device is inside it.
    package func nearestFavorite(of device: String, to coordinate: Coordinate) -> (landmarkIndex: Int, distance: Double, isInside: Bool)? {
        guard !favorites.isEmpty, coordinate.isValid else { return nil }
        let slot = deviceTable.existingSlot(for: device).map(Int.init)
        let membership = favoriteSets[Int(slot.map { devices[$0].favoriteSet } ?? profileSlots[DeviceKey(device)]?.set ?? 0)]
        func inside(_ position: Int) -> Bool {
            slot.map { slot in devices[slot].position(of: Int32(position)).map { devices[slot][entry: $0].isInside } ?? false } ?? false
        }
        var limit = 1
        if favoriteShapes.isEmpty {
            while true {
                let nearest = favoriteIndex.nearest(to: coordinate, limit: limit)
                if let hit = nearest.first(where: { membership?[$0.index] ?? true }) {
                    return (favorites[hit.index], hit.distance, inside(hit.index))
                }
                if nearest.count < limit { return nil }
                limit *= 4
            }
        }
        // With places: their points (cap centres) in order of distance, each place measured;
        // none farther than the best found plus the largest reach can be nearer.
        let largestReach = favoriteShapes.reduce(0) { max($0, $1?.reach ?? 0) }
        var best: (position: Int, distance: Double)?
        while true {
            let nearest = favoriteIndex.nearest(to: coordinate, limit: limit)
            for hit in nearest where membership?[hit.index] ?? true {
                let reach = place(of: hit.index)?.reach ?? 0
                if let best, hit.distance - reach >= best.distance { continue }
                let distance = place(of: hit.index).map { $0.distance(from: coordinate) } ?? hit.distance
                if best == nil || distance < best!.distance { best = (hit.index, distance) }
            }
            if nearest.count < limit || (best != nil && nearest.last!.distance - largestReach > best!.distance) { break }
            limit *= 4
        }
        return best.map { (favorites[$0.position], $0.distance, inside($0.position)) }
    }
}
