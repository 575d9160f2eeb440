/// Remembers the payload built for each landmark index, for engines that notify about the same
/// few landmarks again and again.
///
///     var cache = PayloadCache(options: PayloadOptions())
///     let payload = cache.json(for: catalog[1], index: 1)   // built once, then looked up
public struct PayloadCache: Sendable {
    public let builder: PayloadBuilder
    private var payloads: [Int: String] = [:]

    public init(options: PayloadOptions) {
        self.builder = PayloadBuilder(options: options)
    }

    /// The payload for `landmark` at `index`. The cache is keyed by index: use one cache per
    /// catalog.
    public mutating func json(for landmark: Landmark, index: Int) -> String {
        if let cached = payloads[index] { return cached }
        let payload = builder.json(for: landmark, index: index)
        payloads[index] = payload
        return payload
    }

    /// `json(for: catalog[index], index: index)` for the landmark at `index` of `catalog`,
    /// named `name`: only its radius is read, and only when its payload is not cached yet.
    /// (The engine's notifications: a whole `Landmark` reads every column of a random
    /// landmark, each a cache miss, and makes its strings.)
    mutating func json(forLandmarkAt index: Int, named name: String, in catalog: LandmarkCatalog) -> String {
        if let cached = payloads[index] { return cached }
        let payload = builder.json(name: name, radius: catalog.radius(at: index), index: index)
        payloads[index] = payload
        return payload
    }
}
