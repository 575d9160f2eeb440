@_spi(Inlining) import LandmarkNearCore

/// Remembers the payload built for each landmark index, for engines that notify about the same
/// few landmarks again and again.
///
///     var cache = PayloadCache(options: PayloadOptions())
///     let payload = cache.json(for: catalog[1], index: 1)   // built once, then looked up
package struct PayloadCache: Sendable {
    package let builder: PayloadBuilder
    private var payloads: [Int: String] = [:]

    package init(options: PayloadOptions) {
        self.builder = PayloadBuilder(options: options)
    }

    /// The payload for `landmark` at `index`. The cache is keyed by index: use one cache per
    /// catalog.
    package mutating func json(for landmark: Landmark, index: Int) -> String {
        json(forLandmarkAt: index, named: landmark.name, radius: landmark.radius)
    }

    /// `json(for: catalog[index], index: index)` for the landmark at `index`, given its name
    /// and its own radius (`LandmarkCatalog.name(at:)`, `radius(at:)`): the engine's
    /// notifications, for which a whole `Landmark` read every column of a random landmark
    /// (each a cache miss) and made its strings.
    package mutating func json(forLandmarkAt index: Int, named name: String, radius: Length?) -> String {
        if let cached = payloads[index] { return cached }
        let payload = builder.json(name: name, radius: radius, index: index)
        payloads[index] = payload
        return payload
    }
}
