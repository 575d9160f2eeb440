@_spi(Inlining) import LandmarkNearCore
import LandmarkNearEngine

/// Who is inside now: what `serve` shows and saves besides the engine's state.
extension Pipeline {
    /// From now on, each device's latest fix and since when it is inside are kept (and saved
    /// with `--state`); a store's devices start them. Before `resume()`.
    package func keepWhereabouts() throws(WatchError) {
        var kept = Whereabouts()
        if let commits {
            do {
                for device in try commits.store.loadDevices() { kept.restore(device) }
            } catch {
                throw WatchError(error)
            }
        }
        whereabouts = kept
    }

    /// The devices changed since the last call, as the store keeps them: with the whereabouts,
    /// and each favourite's index and name in the catalog in force (for `landmark-near
    /// devices`, which reads the store without a catalog).
    func takeChanges() -> [DeviceSnapshot] {
        var changes = engine.takeChanges()
        for index in changes.indices {
            whereabouts?.annotate(&changes[index])
            guard changes[index].favoritesChanged else { continue }
            for position in changes[index].favorites.indices {
                name(&changes[index].favorites[position])
            }
        }
        return changes
    }

    /// One device as `GET /devices/DEVICE` shows it; nil for a device never seen.
    func whereabouts(of device: String) -> DeviceSnapshot? {
        guard var snapshot = engine.snapshot(of: device) else { return nil }
        whereabouts?.annotate(&snapshot)
        for position in snapshot.favorites.indices { name(&snapshot.favorites[position]) }
        return snapshot
    }

    /// Every device inside landmark `id`, by name, with since when.
    func devicesInside(landmark id: Int) -> [(device: String, since: Timestamp?)] {
        var inside: [(device: String, since: Timestamp?)] = []
        for snapshot in engine.snapshots() {
            guard let favorite = snapshot.favorites.first(where: { $0.landmarkID == id && $0.isInside }) else { continue }
            inside.append((snapshot.device, whereabouts?[snapshot.device]?.since[favorite.landmarkID] ?? nil))
        }
        return inside.sorted { $0.device.utf8.lexicographicallyPrecedes($1.device.utf8) }
    }

    /// How many devices are inside a landmark now, and how many (device, landmark) pairs.
    package var insideCounts: (devices: Int, pairs: Int) { engine.insideCounts() }

    private func name(_ favorite: inout FavoriteSnapshot) {
        guard let index = catalog.index(ofID: favorite.landmarkID) else { return }
        favorite.landmarkIndex = index
        favorite.landmarkName = catalog.name(at: index)
    }
}
