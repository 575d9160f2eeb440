import LandmarkNear
@_spi(Inlining) import LandmarkNearGeodesy

/// 1,000,000 query points, `lat,lon`: even rows lie within 20 km of a random real place
/// (area-uniform in the disc, via `Geodesic.destination`), odd rows are area-uniform over
/// latitudes -60...75 and all longitudes. Alternating rows keep any prefix an even mix, so a
/// peer that subsamples the first N rows gets the same blend.
enum QueryGenerator {
    static func write(to path: String, places: [Coordinate], count: Int, seed: UInt64) throws(BenchError) {
        var random = SeededRandom(seed: seed, stream: "queries")
        let out = try ByteWriter(path: path)
        out.write("lat,lon\n" as StaticString)
        var progress = ProgressLine("queries", total: count)
        for row in 0..<count {
            let point: Coordinate
            if row % 2 == 0 {
                let place = places[random.below(places.count)]
                point = Geodesic.wgs84.destination(
                    from: place, azimuth: random.uniform(0, 360),
                    distance: 20_000 * random.unit().squareRoot())
            } else {
                point = Coordinate(
                    latitude: random.areaUniformLatitude(south: -60, north: 75),
                    longitude: random.uniform(-180, 180))
            }
            out.write(point.latitude, decimals: 6)
            out.write(byte: UInt8(ascii: ","))
            out.write(point.longitude, decimals: 6)
            out.write(byte: 0x0A)
            if row & 0xFFFF == 0 { progress.update(row) }
        }
        try out.close()
        progress.finish(path)
    }
}
