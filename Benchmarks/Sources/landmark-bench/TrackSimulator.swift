import LandmarkNear
@_spi(Inlining) import LandmarkNearGeodesy

/// Devices driving at 1 Hz around the GeoNames places: each starts within 10 km of a random
/// place with a random heading, turns gently (heading random walk, sigma 3 degrees a second)
/// and changes speed gently within 5...30 m/s; every position comes from
/// `Geodesic.destination`. After a trip of 10-60 minutes a device starts again near another
/// random place (this matters only for the long single-device drive: the multi-device loads
/// last 10-1000 s).
struct TrackSimulator {
    struct Device {
        var position: Coordinate
        var heading: Double
        var speed: Double
        var tripLeft: Int
    }

    private var random: SeededRandom
    private let places: [Coordinate]
    private(set) var devices: [Device] = []

    init(deviceCount: Int, places: [Coordinate], seed: UInt64, stream: String) {
        random = SeededRandom(seed: seed, stream: stream)
        self.places = places
        devices.reserveCapacity(deviceCount)
        for _ in 0..<deviceCount { devices.append(startTrip()) }
    }

    private mutating func startTrip() -> Device {
        let place = places[random.below(places.count)]
        let start = Geodesic.wgs84.destination(
            from: place, azimuth: random.uniform(0, 360),
            distance: 10_000 * random.unit().squareRoot())
        return Device(
            position: start, heading: random.uniform(0, 360), speed: random.uniform(5, 30),
            tripLeft: 600 + random.below(3001))
    }

    /// Moves device `d` on by one second.
    mutating func advance(_ d: Int) {
        var device = devices[d]
        device.tripLeft -= 1
        if device.tripLeft <= 0 {
            device = startTrip()
        } else {
            device.heading += 3 * random.normal()
            if device.heading < 0 { device.heading += 360 } else if device.heading >= 360 { device.heading -= 360 }
            device.speed = min(30, max(5, device.speed + 0.5 * random.normal()))
            device.position = Geodesic.wgs84.destination(from: device.position, azimuth: device.heading, distance: device.speed)
        }
        devices[d] = device
    }
}
