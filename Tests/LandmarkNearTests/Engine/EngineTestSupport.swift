@_spi(Inlining) @testable import LandmarkNearCore
@testable import LandmarkNearEngine
@_spi(Inlining) @testable import LandmarkNearGeodesy

/// Builders shared by the engine tests.
enum EngineFixtures {
    static let turtleRock = LandmarkCatalog.embedded[0].coordinate

    /// A point `distance` metres from `origin` along `azimuth`, computed with the geodesic
    /// direct problem.
    static func point(_ distance: Double, from origin: Coordinate = turtleRock, azimuth: Double = 90) -> Coordinate {
        Geodesic.wgs84.destination(from: origin, azimuth: azimuth, distance: distance)
    }

    static func time(_ seconds: Int64) -> Timestamp { Timestamp(seconds: 1_777_636_800 + seconds) }

    static func fix(_ coordinate: Coordinate, device: String = "d1", at seconds: Int64? = nil, accuracy: Double? = nil) -> Fix {
        Fix(device: device, coordinate: coordinate, time: seconds.map(time), accuracy: accuracy)
    }

    static func catalog(_ points: [(Int, Coordinate)], favorite: Bool = true) throws -> LandmarkCatalog {
        try LandmarkCatalog(points.map { Landmark(id: $0.0, name: "L\($0.0)", coordinate: $0.1, isFavorite: favorite) })
    }

    /// Runs fixes through an engine and returns the events of each fix.
    static func run(
        _ fixes: [Fix], catalog: LandmarkCatalog = .embedded,
        configure: (inout EngineConfiguration) -> Void = { _ in }
    ) throws -> [(FixDisposition, [ProximityEvent])] {
        var configuration = EngineConfiguration()
        configure(&configuration)
        let engine = try ProximityEngine(catalog: catalog, configuration: configuration)
        return fixes.map { fix in
            var events: [ProximityEvent] = []
            let disposition = engine.process(fix, into: &events)
            return (disposition, events)
        }
    }
}

extension ProximityEvent {
    /// "enter 0", "enter 0 cooldown", "exit 3": compact for expectations.
    var summary: String {
        var text = "\(kind.rawValue) \(landmarkIndex)"
        if let suppression { text += " \(suppression.rawValue)" }
        return text
    }
}
