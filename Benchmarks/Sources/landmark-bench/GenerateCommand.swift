import LandmarkNear

#if canImport(Glibc)
import Glibc
#endif

/// `landmark-bench generate [--out Benchmarks/out] [--seed N]`: writes every input file of
/// the benchmarks (ours and the peers'), deterministically from the seed.
enum GenerateCommand {
    static let usage = "landmark-bench generate [--out Benchmarks/out] [--seed 42] [--fixes 1000000]"

    static func run(_ arguments: [String]) throws(BenchError) {
        let options = try Options(arguments, allowed: ["out", "seed", "fixes"])
        let layout = DataLayout(directory: options.string("out", default: "Benchmarks/out"))
        let seed = UInt64(try options.int("seed", default: 42))
        let fixCount = try options.int("fixes", default: DataLayout.fixCount)
        mkdir(layout.directory, 0o755)
        let started = MonotonicClock.now()

        let cities = try CoordinateFile.read(path: DataLayout.citiesSource, latColumn: 0, keepRest: true)
        guard cities.coordinates.count > 1000 else { throw BenchError("\(DataLayout.citiesSource) has too few rows") }
        let places = cities.coordinates

        try LandmarkSetGenerator.writeCities(to: layout.citiesCatalog, cities: cities)
        try QueryGenerator.write(to: layout.queries, places: places, count: DataLayout.queryCount, seed: seed)
        try LandmarkSetGenerator.writeSynthetic(layout: layout, places: places, count: DataLayout.syntheticCount, seed: seed)

        // The watch load: 10,000 devices, NDJSON and CSV of the very same fixes.
        try writeMultiDevice(
            layout: layout, devices: DataLayout.watchDevices, fixes: fixCount, places: places,
            seed: seed, ndjson: layout.fixesNDJSON, csv: layout.fixesCSV)
        // One device's drive as NMEA and GPX (they carry no device id).
        try writeSingleDevice(layout: layout, fixes: fixCount, places: places, seed: seed)
        // Device scaling: the same number of fixes spread over 1k / 10k / 100k devices.
        for devices in DataLayout.deviceScaling {
            let path = layout.devices(devices)
            if devices == DataLayout.watchDevices {
                unlink(path)
                if link(layout.fixesNDJSON, path) != 0 {
                    try writeMultiDevice(
                        layout: layout, devices: devices, fixes: fixCount, places: places,
                        seed: seed, ndjson: path, csv: nil)
                } else {
                    Stderr.line("devices-\(DataLayout.short(devices)): same file as fixes.ndjson — \(path)")
                }
            } else {
                try writeMultiDevice(
                    layout: layout, devices: devices, fixes: fixCount, places: places,
                    seed: seed, ndjson: path, csv: nil)
            }
        }
        try writeDistinctDevices(layout: layout, places: places, seed: seed)
        try writeManifest(layout: layout, seed: seed, fixes: fixCount)
        Stderr.line(String(format: "generate: done in %.1f s", MonotonicClock.now() - started))
    }

    static func deviceName(_ d: Int, devices: Int) -> [UInt8] {
        var bytes = Array("dev".utf8)
        ByteWriter.appendInteger(d, width: max(4, String(devices - 1).count), to: &bytes)
        return bytes
    }

    static func writeMultiDevice(
        layout: DataLayout, devices: Int, fixes: Int, places: [Coordinate], seed: UInt64,
        ndjson: String, csv: String?
    ) throws(BenchError) {
        var simulator = TrackSimulator(deviceCount: devices, places: places, seed: seed, stream: "devices-\(devices)")
        let names = (0..<devices).map { deviceName($0, devices: devices) }
        let json = try ByteWriter(path: ndjson)
        let table = try csv.map { path throws(BenchError) in try ByteWriter(path: path) }
        table?.write(FixEncoders.csvHeader)
        var time = FixTime()
        var progress = ProgressLine("fixes \(DataLayout.short(devices)) devices", total: fixes)
        var written = 0
        var second = 0
        while written < fixes {
            let stamp = time.at(second)
            for d in 0..<devices where written < fixes {
                if second > 0 { simulator.advance(d) }
                let position = simulator.devices[d].position
                FixEncoders.ndjson(json, device: names[d], at: position, time: stamp)
                if let table { FixEncoders.csv(table, device: names[d], at: position, time: stamp) }
                written += 1
            }
            second += 1
            progress.update(written)
        }
        try json.close()
        try table?.close()
        progress.finish(ndjson + (csv.map { " + " + $0 } ?? ""))
    }

    /// The distinct-devices load: `DataLayout.distinctDevices` fixes, each the first (and only)
    /// fix of its own device (`dev0000000` ...), at the start of a trip as in `fixes.ndjson`.
    /// `watch` needs `generate`'s places for it, so `landmark-bench watch` makes it too when it
    /// is missing.
    static func writeDistinctDevices(layout: DataLayout, places: [Coordinate], seed: UInt64) throws(BenchError) {
        let count = DataLayout.distinctDevices
        try writeMultiDevice(
            layout: layout, devices: count, fixes: count, places: places, seed: seed,
            ndjson: layout.distinctDevices, csv: nil)
    }

    /// The places `generate` starts devices from.
    static func places() throws(BenchError) -> [Coordinate] {
        let cities = try CoordinateFile.read(path: DataLayout.citiesSource, latColumn: 0, keepRest: true)
        guard cities.coordinates.count > 1000 else { throw BenchError("\(DataLayout.citiesSource) has too few rows") }
        return cities.coordinates
    }

    static func writeSingleDevice(layout: DataLayout, fixes: Int, places: [Coordinate], seed: UInt64) throws(BenchError) {
        var simulator = TrackSimulator(deviceCount: 1, places: places, seed: seed, stream: "single-device")
        let nmea = try ByteWriter(path: layout.fixesNMEA)
        let gpx = try ByteWriter(path: layout.fixesGPX)
        gpx.write(FixEncoders.gpxHeader)
        var time = FixTime()
        var progress = ProgressLine("fixes 1 device (NMEA, GPX)", total: fixes)
        for second in 0..<fixes {
            if second > 0 { simulator.advance(0) }
            let device = simulator.devices[0]
            let stamp = time.at(second)
            FixEncoders.nmea(nmea, at: device.position, time: stamp, speed: device.speed, heading: device.heading)
            FixEncoders.gpx(gpx, at: device.position, time: stamp)
            if second & 0x3FFF == 0 { progress.update(second) }
        }
        gpx.write(FixEncoders.gpxFooter)
        try nmea.close()
        try gpx.close()
        progress.finish(layout.fixesNMEA + " + " + layout.fixesGPX)
    }

    static func writeManifest(layout: DataLayout, seed: UInt64, fixes: Int) throws(BenchError) {
        let out = try ByteWriter(path: layout.manifest)
        out.write(
            """
            {"seed":\(seed),"fixes":\(fixes),"queries":\(DataLayout.queryCount),"synthetic":\(DataLayout.syntheticCount),\
            "favoriteEvery":\(DataLayout.favoriteEvery),"watchDevices":\(DataLayout.watchDevices),\
            "deviceScaling":[\(DataLayout.deviceScaling.map(String.init).joined(separator: ","))],\
            "subsets":[\(DataLayout.subsetSizes.map(String.init).joined(separator: ","))],\
            "cities":"\(DataLayout.citiesSource)"}

            """)
        try out.close()
    }
}
