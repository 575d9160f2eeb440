/// Where the generated files live (default `Benchmarks/out`) and what they are called; the
/// peers script reads the same names.
struct DataLayout {
    var directory: String

    static let fixCount = 1_000_000
    static let queryCount = 1_000_000
    static let syntheticCount = 1_000_000
    static let subsetSizes = [10_000, 100_000]
    static let watchDevices = 10_000
    static let deviceScaling = [1_000, 10_000, 100_000]
    /// The distinct-devices load: this many fixes, each from a device of its own.
    static let distinctDevices = 1_000_000
    /// Every 50th landmark (rows 0, 50, 100, ...) is a favourite in the generated catalogs.
    static let favoriteEvery = 50

    /// `landmark-bench places`: polygon favourites for `watch`, and a large catalog to load.
    static let placeFavorites = 10_000
    static let placeCatalog = 100_000

    /// The shipped GeoNames copy (relative to the repository root).
    static let citiesSource = "Benchmarks/data/cities.csv"

    var queries: String { directory + "/queries.csv" }
    var citiesCatalog: String { directory + "/landmarks-cities.csv" }
    var syntheticCatalog: String { directory + "/landmarks-synthetic-1m.csv" }
    func syntheticSubset(_ count: Int) -> String { directory + "/landmarks-synthetic-\(DataLayout.short(count)).csv" }
    var fixesNDJSON: String { directory + "/fixes.ndjson" }
    var fixesCSV: String { directory + "/fixes.csv" }
    var fixesNMEA: String { directory + "/fixes-1dev.nmea" }
    var fixesGPX: String { directory + "/fixes-1dev.gpx" }
    func devices(_ count: Int) -> String { directory + "/devices-\(DataLayout.short(count)).ndjson" }
    /// 1,000,000 fixes of 1,000,000 devices, one fix each (`GenerateCommand.writeDistinctDevices`).
    var distinctDevices: String { directory + "/devices-1m-distinct.ndjson" }
    /// 10,000 polygons of 64–512 vertices, all favourites (`PlaceSetGenerator`).
    var places10k: String { directory + "/places-10k.geojson" }
    /// 100,000 polygons of 16–10,000 vertices, every 10th a favourite.
    var places100k: String { directory + "/places-100k.geojson" }
    /// 1,000,000 fixes of 10,000 devices driving around the 10k polygons.
    var placesFixes: String { directory + "/places-fixes.ndjson" }
    var manifest: String { directory + "/manifest.json" }
    var benchResults: String { directory + "/bench.json" }
    var peersResults: String { directory + "/peers.json" }

    /// 10000 -> "10k", 1000000 -> "1m".
    static func short(_ count: Int) -> String {
        if count % 1_000_000 == 0 { return "\(count / 1_000_000)m" }
        if count % 1_000 == 0 { return "\(count / 1_000)k" }
        return "\(count)"
    }
}
