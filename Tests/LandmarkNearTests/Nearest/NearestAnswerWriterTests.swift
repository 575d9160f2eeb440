import Foundation
import Testing

@_spi(Inlining) @testable import LandmarkNearCore
@testable import LandmarkNearIndex
@testable import LandmarkNearOutputs
@testable import LandmarkNearReaders
@testable import LandmarkNearServer

/// The byte-level `nearest` output against the String-based one it replaces, fed with exact
/// (`geod_inverse`) distances: byte for byte the same text.
@Suite(.suiteTimeLimit) struct NearestAnswerWriterTests {
    static func randomValues(count: Int, seed: UInt64) -> [Double] {
        var rng = IndexTestSupport.SeededGenerator(seed: seed)
        var values: [Double] = [0, 0.0005, 0.0015, 1.0625, 2.0625, 1.5e-3, 999.9995, 1000, 0.001, 1e-9, 12_345_678.9, 2.5, 0.0625]
        for _ in 0..<count {
            let magnitude = Double.random(in: -4...7.3, using: &rng)
            values.append(pow(10, magnitude))
            // Exact ties in binary: k / 2^m with few bits.
            values.append(Double(Int.random(in: 0...1_000_000, using: &rng)) / 16)
        }
        return values
    }

    @Test func fixed3IsPrintfs() {
        for value in Self.randomValues(count: 20_000, seed: 3) {
            var bytes: [UInt8] = []
            DecimalDigits.appendFixed3(value, to: &bytes)
            let expected = String(format: "%.3f", value)
            if String(decoding: bytes, as: UTF8.self) != expected {
                Issue.record("\(value): \(String(decoding: bytes, as: UTF8.self)) != \(expected)")
                return
            }
        }
    }

    @Test func millimetresAreJSONWritersNumber() {
        for value in Self.randomValues(count: 20_000, seed: 4) {
            var bytes: [UInt8] = []
            DecimalDigits.appendMillimetres(value, to: &bytes)
            let expected = JSONWriter.number(NearestAnswerFormat.millimetres(value))
            if String(decoding: bytes, as: UTF8.self) != expected {
                Issue.record("\(value): \(String(decoding: bytes, as: UTF8.self)) != \(expected)")
                return
            }
        }
    }

    static let cities: LandmarkCatalog = {
        let url = Bundle.module.url(forResource: "cities-sample", withExtension: "csv", subdirectory: "Fixtures")!
        return try! CatalogLoader.load(path: url.path)
    }()

    @Test(arguments: [false, true])
    func answersAreTheStringFormattersWithExactDistances(_ json: Bool) throws {
        let catalog = Self.cities
        let index = LandmarkIndex(catalog: catalog)
        let reference = BruteForceReference(catalog.landmarks.map(\.coordinate))
        var rng = IndexTestSupport.SeededGenerator(seed: 5)
        for round in 0..<300 {
            let limit = [1, 1, 2, 3][round % 4]
            let within: Length? = round % 5 == 0 ? Length(value: 5, unit: .miles) : nil
            let query = NearestQuery(limit: limit, within: within)
            let writer = NearestAnswerWriter(catalog: catalog, query: query, json: json)
            let coordinate = IndexTestSupport.queryPoint(&rng, near: catalog.landmarks.map(\.coordinate))
            let latitude = String(coordinate.latitude)
            let longitude = String(coordinate.longitude)
            let point = try QueryPoint(latitude: latitude, longitude: longitude)
            writer.answer(
                point.coordinate, latitude: latitude, longitude: longitude, neighbors: query.answer(point.coordinate, in: index))
            var exact = reference.nearest(to: point.coordinate, limit: limit)
            if let within { exact = exact.filter { $0.distance <= within.meters } }
            let expected =
                json
                ? NearestAnswerFormat.json(point: point, neighbors: exact, catalog: catalog) + "\n"
                : NearestAnswerFormat.rows(point: point, neighbors: exact, catalog: catalog, within: within).map { $0 + "\n" }.joined()
            let actual = String(decoding: writer.bytes, as: UTF8.self)
            if actual != expected {
                Issue.record("\(point.coordinate) k=\(limit): \(actual) != \(expected)")
                return
            }
        }
    }

    @Test(arguments: [
        ("34.0,-116.0", 34.0, -116.0), (" 34 , -116 ", 34, -116), ("\u{FEFF}1e1\t-2.5", 10, -2.5),
        ("+5,.5", 5, 0.5), ("-90,180", -90, 180),
    ])
    func lineScannerReadsWhatQueryPointReads(_ line: String, _ latitude: Double, _ longitude: Double) throws {
        let bytes = Array(line.utf8)
        let point = try #require(try QueryPoint(line: line))
        bytes.withUnsafeBufferPointer { buffer in
            guard case .point(let coordinate, let lat, let lon) = QueryLine.scan(buffer) else {
                Issue.record("not read: \(line)")
                return
            }
            #expect(coordinate == Coordinate(latitude: latitude, longitude: longitude))
            #expect(coordinate == point.coordinate)
            #expect(String(decoding: buffer[lat], as: UTF8.self) == point.latitudeText)
            #expect(String(decoding: buffer[lon], as: UTF8.self) == point.longitudeText)
        }
    }

    @Test(arguments: [("-116.2,34.5", -116.2, 34.5), (" 151.2 -33.9 ", 151.2, -33.9)])
    func lineScannerReadsLongitudeFirstAsQueryPointDoes(_ line: String, _ longitude: Double, _ latitude: Double) throws {
        let point = try #require(try QueryPoint(line: line, order: .longitudeFirst))
        Array(line.utf8).withUnsafeBufferPointer { buffer in
            guard case .point(let coordinate, let lat, let lon) = QueryLine.scan(buffer, order: .longitudeFirst) else {
                Issue.record("not read: \(line)")
                return
            }
            #expect(coordinate == Coordinate(latitude: latitude, longitude: longitude))
            #expect(coordinate == point.coordinate)
            #expect(String(decoding: buffer[lat], as: UTF8.self) == point.latitudeText)
            #expect(String(decoding: buffer[lon], as: UTF8.self) == point.longitudeText)
        }
    }

    @Test(arguments: ["34,5 -116,2", "-116 34", "lat,lon", "1,2,3", "nan,0", "91,0", "0,181", "abc,1", "1e999,0", "1 2 3", ",", "1,"])
    func lineScannerLeavesTheRestToQueryPoint(_ line: String) {
        Array(line.utf8).withUnsafeBufferPointer { buffer in
            guard case .undecided = QueryLine.scan(buffer) else {
                Issue.record("decided: \(line)")
                return
            }
        }
    }
}
