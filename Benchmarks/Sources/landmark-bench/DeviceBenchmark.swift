import Foundation
import LandmarkNear

/// Memory and time per tracked device, in process: the engine over the GeoNames catalog
/// (every 50th place a favourite) takes one fix each from N new devices, either far from
/// every favourite (mid-ocean) or inside one (1 km from a favourite). Bytes are the growth
/// of malloc's in-use bytes (`MemoryProbe.heapBytes`) over the N devices; time is the wall
/// time of the N fixes (the first fix of a device: its slot, its state, its index query).
enum DeviceBenchmark {
    static let deviceCount = 1_000_000

    static func measure(catalogPath: String) -> [Measurement] {
        guard let catalog = try? CatalogLoader.load(path: catalogPath), !catalog.favoriteIndices.isEmpty else {
            Stderr.line("devices: cannot load \(catalogPath)")
            return []
        }
        let favorites = catalog.favoriteIndices.map { catalog[$0].coordinate }
        var results: [Measurement] = []
        for near in [false, true] {
            var generator = SeededRandom(seed: 9, stream: "devices")
            var fixes: [Fix] = []
            fixes.reserveCapacity(deviceCount)
            for number in 0..<deviceCount {
                let coordinate: Coordinate
                if near {
                    // ~1 km north of a favourite: inside it, and it is the device's candidate.
                    let base = favorites[number % favorites.count]
                    coordinate = Coordinate(latitude: min(89.9, base.latitude + 0.009), longitude: base.longitude)
                } else {
                    // The South Pacific, far from every place of the catalog.
                    coordinate = Coordinate(
                        latitude: Double.random(in: -50 ..< -40, using: &generator),
                        longitude: Double.random(in: -140 ..< -130, using: &generator))
                }
                fixes.append(
                    Fix(
                        device: "device-\(number)", coordinate: coordinate,
                        time: Timestamp(seconds: 1_777_636_800 + Int64(number))))
            }
            guard let engine = try? ProximityEngine(catalog: catalog, configuration: EngineConfiguration()) else { return [] }
            engine.tracksChanges = false
            var events: [ProximityEvent] = []
            let before = MemoryProbe.heapBytes() ?? 0
            let start = MonotonicClock.now()
            for fix in fixes {
                events.removeAll(keepingCapacity: true)
                engine.process(fix, into: &events)
            }
            let seconds = MonotonicClock.now() - start
            let after = MemoryProbe.heapBytes() ?? 0
            let label = near ? "inside a favourite" : "far from favourites"
            let key = near ? "near" : "far"
            let bytes = Double(after - before) / Double(deviceCount)
            Stderr.line(String(format: "devices %@: %.1f B and %.3f µs a new device", label, bytes, seconds * 1e6 / Double(deviceCount)))
            results.append(
                Measurement(
                    key: "watch.device.bytes.\(key)", what: "memory per tracked device", dataset: "1M devices, \(label)",
                    value: bytes, unit: "B", note: "malloc in-use growth / 1M (engine in process; state, slot, name)"))
            results.append(
                Measurement(
                    key: "watch.device.time.\(key)", what: "cost of a new device (its first fix)", dataset: "1M devices, \(label)",
                    value: seconds * 1e6 / Double(deviceCount), unit: "µs", note: "engine in process, 144,563 places, 2,892 favourites"))
            withExtendedLifetime(engine) {}
        }
        return results
    }
}
