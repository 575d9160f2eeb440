@_spi(Inlining) import LandmarkNearCore
@_spi(Inlining) import LandmarkNearGeodesy

extension ProximityEngine {
    /// Places from this many favourites on are measured on two threads.
    static let parallelShapeThreshold = 64

    /// Each favourite place measured as itself (`GeodesicShape`; nil for a point), in the order
    /// of `favorites`; the first that cannot be measured is refused by its id.
    ///
    /// The second half is measured on another core while this thread measures the first: each
    /// measure reads only its own place and makes a value (no shared state, so the halves need
    /// no coordination and give what one thread would). It was a third of the start-up of
    /// `watch` with 10,000 polygons of 64–512 vertices, on one core (Benchmarks/LOG.md, "Places").
    static func measuredShapes(of favorites: [Int], in catalog: LandmarkCatalog) throws(EngineConfigurationError) -> [GeodesicShape?] {
        let half = favorites.count >= parallelShapeThreshold ? favorites.count / 2 : favorites.count
        let tail = Array(favorites[half...])
        let other = tail.isEmpty ? nil : OtherThread { measure(tail, in: catalog) }
        let head = measure(favorites[..<half], in: catalog)
        let rest = other?.value() ?? Measured(shapes: [], failed: nil)
        // The lower index first, as one thread would have met it.
        if let failed = head.failed ?? rest.failed {
            throw EngineConfigurationError("landmark \(catalog.id(at: failed)) has a geometry that cannot be measured", kind: .badData)
        }
        return head.shapes + rest.shapes
    }

    private struct Measured: Sendable {
        var shapes: [GeodesicShape?]
        /// The catalog index of the first place that could not be measured; then `shapes` stops.
        var failed: Int?
    }

    private static func measure(_ favorites: some Collection<Int>, in catalog: LandmarkCatalog) -> Measured {
        var measured = Measured(shapes: [], failed: nil)
        measured.shapes.reserveCapacity(favorites.count)
        for index in favorites {
            guard let shape = catalog.shape(at: index) else {
                measured.shapes.append(nil)
                continue
            }
            guard let made = GeodesicShape(shape) else {
                measured.failed = index
                return measured
            }
            measured.shapes.append(made)
        }
        return measured
    }
}
