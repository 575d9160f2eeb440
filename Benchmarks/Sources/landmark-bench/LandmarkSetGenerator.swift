import LandmarkNear
@_spi(Inlining) import LandmarkNearGeodesy

/// Landmark catalogs as CSV `id,lat,lon,name,isFavorite` (a format `--landmarks` reads):
/// the GeoNames places, and 1,000,000 synthetic clustered landmarks with prefix subsets.
enum LandmarkSetGenerator {
    /// The shipped cities as a catalog: ids 1..., names as in the source (already CSV-quoted
    /// where needed; the one unnamed place of the source becomes `Place <id>`, since a catalog
    /// entry needs a name), every 50th row a favourite.
    static func writeCities(to path: String, cities: CoordinateFile) throws(BenchError) {
        let out = try ByteWriter(path: path)
        out.write("id,lat,lon,name,isFavorite\n" as StaticString)
        for (row, place) in cities.coordinates.enumerated() {
            let name = cities.rests[row]
            writeRow(out, row: row, coordinate: place, name: name.isEmpty ? "Place \(row + 1)" : name)
        }
        try out.close()
        Stderr.line("landmarks-cities: \(cities.coordinates.count) rows — \(path)")
    }

    /// 1,000,000 synthetic landmarks: 90% in 5,000 clusters centred on random real places
    /// (each cluster a 2-D Gaussian of its own spread, 1-40 km), 10% area-uniform over
    /// latitudes -60...75. Rows come in random order, so the first N rows are a uniform
    /// subsample: the 10k and 100k catalogs are prefixes of this one.
    static func writeSynthetic(layout: DataLayout, places: [Coordinate], count: Int, seed: UInt64) throws(BenchError) {
        var random = SeededRandom(seed: seed, stream: "synthetic-landmarks")
        let clusterCount = 5_000
        var centres: [(Coordinate, Double)] = []
        for _ in 0..<clusterCount {
            let spread = 1_000 * _exp(random.uniform(_log(1), _log(40)))
            centres.append((places[random.below(places.count)], spread))
        }
        let subsetSizes = DataLayout.subsetSizes.filter { $0 < count }
        var outputs: [(ByteWriter, Int)] = []
        for size in subsetSizes { outputs.append((try ByteWriter(path: layout.syntheticSubset(size)), size)) }
        let full = try ByteWriter(path: layout.syntheticCatalog)
        outputs.append((full, count))
        for (out, _) in outputs { out.write("id,lat,lon,name,isFavorite\n" as StaticString) }
        var progress = ProgressLine("landmarks-synthetic", total: count)
        for row in 0..<count {
            let point: Coordinate
            if random.unit() < 0.1 {
                point = Coordinate(
                    latitude: random.areaUniformLatitude(south: -60, north: 75),
                    longitude: random.uniform(-180, 180))
            } else {
                let (centre, spread) = centres[random.below(clusterCount)]
                // Rayleigh-distributed distance = isotropic Gaussian offset.
                let distance = spread * (-2 * _log(1 - random.unit())).squareRoot()
                point = Geodesic.wgs84.destination(from: centre, azimuth: random.uniform(0, 360), distance: distance)
            }
            let name = "Synthetic " + String(row + 1)
            for (out, size) in outputs where row < size {
                writeRow(out, row: row, coordinate: point, name: name)
            }
            if row & 0xFFFF == 0 { progress.update(row) }
        }
        for (out, _) in outputs { try out.close() }
        progress.finish(layout.syntheticCatalog + " (+ prefixes " + subsetSizes.map(DataLayout.short).joined(separator: ", ") + ")")
    }

    private static func writeRow(_ out: ByteWriter, row: Int, coordinate: Coordinate, name: String) {
        out.write(row + 1)
        out.write(byte: UInt8(ascii: ","))
        out.write(coordinate.latitude, decimals: 6)
        out.write(byte: UInt8(ascii: ","))
        out.write(coordinate.longitude, decimals: 6)
        out.write(byte: UInt8(ascii: ","))
        out.write(name)
        out.write(row % DataLayout.favoriteEvery == 0 ? ",true\n" as StaticString : ",false\n" as StaticString)
    }
}
