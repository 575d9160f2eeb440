import Testing

@_spi(Inlining) @testable import LandmarkNearCore
@testable import LandmarkNearReaders
@testable import LandmarkNearServer

/// The catalog's column storage gives back every field as it was given, and the byte-level
/// CSV cell readers agree with the String ones they replace on the load path.
@Suite(.suiteTimeLimit) struct CatalogColumnsTests {
    static let landmarks: [Landmark] = [
        Landmark(id: 1, name: "A", coordinate: Coordinate(latitude: 1, longitude: 2)),
        Landmark(
            id: -7, name: "Zürich \u{0}北京 😀", coordinate: Coordinate(latitude: -0.0, longitude: 179.999999999999),
            isFavorite: true, isFeatured: true, category: "", city: "c", state: "s", park: String(repeating: "p", count: 300),
            imageName: "i", radius: Length(value: 2, unit: .kilometers)),
        Landmark(
            id: Int.max, name: String(repeating: "é", count: 70_000), coordinate: Coordinate(latitude: 90, longitude: -180),
            park: "only park"),
        Landmark(id: 3, name: "e\u{301}", coordinate: Coordinate(latitude: 1, longitude: 2), isFeatured: true, imageName: "img"),
    ]

    @Test func everyFieldComesBack() throws {
        let catalog = try LandmarkCatalog(Self.landmarks)
        #expect(catalog.count == Self.landmarks.count)
        for (index, landmark) in Self.landmarks.enumerated() {
            let read = catalog[index]
            #expect(read == landmark)
            #expect(Array(read.name.utf8) == Array(landmark.name.utf8))
            #expect(read.coordinate.latitude.bitPattern == landmark.coordinate.latitude.bitPattern)
            #expect(read.category == landmark.category && read.city == landmark.city && read.state == landmark.state)
            #expect(read.park == landmark.park && read.imageName == landmark.imageName && read.radius == landmark.radius)
            #expect(catalog.name(at: index) == landmark.name && catalog.id(at: index) == landmark.id)
            #expect(catalog.coordinate(at: index) == landmark.coordinate && catalog.radius(at: index) == landmark.radius)
            #expect(catalog.isFavorite(at: index) == landmark.isFavorite)
        }
        #expect(catalog.landmarks == Self.landmarks)
        #expect(catalog.landmarks.map(\.coordinate) == Self.landmarks.map(\.coordinate))
        #expect(catalog.landmarks.map(\.id) == Self.landmarks.map(\.id))
        #expect(catalog.landmarks.map(\.name) == Self.landmarks.map(\.name))
        #expect(catalog.favoriteIndices == [1])
        #expect(catalog.hasOwnRadii)
        #expect(!LandmarkCatalog.embedded.hasOwnRadii)
    }

    @Test(arguments: [[1, 2, 3, 10, 11], [5, 3, 9, -1, 0], [100], [], [-5, -4, 8, 2_000_000_000_000]])
    func indexOfIDAgreesWithASearch(ids: [Int]) throws {
        let catalog = try LandmarkCatalog(
            ids.map { Landmark(id: $0, name: "n\($0)", coordinate: Coordinate(latitude: 0, longitude: 0)) })
        for probe in ids + [-6, 4, 12, 99, Int.min, Int.max] {
            #expect(catalog.index(ofID: probe) == ids.firstIndex(of: probe), "id \(probe) in \(ids)")
        }
    }

    @Test(arguments: [
        "true", "TRUE", "True", " yes ", "Y", "t", "1", "0", "false", "FaLsE", "no", "N", "f", "", "  ", "\t",
        "tru", "yess", "2", "-1", "truex", "on", "off", "ｔｒｕｅ", "é", "YES\t", " 1", "0 ", "10", "falsey",
    ])
    func bytesBooleanIsTheStringOne(_ cell: String) {
        var cell = cell
        let fromBytes = cell.withUTF8 { CSVLine.boolean($0) }
        #expect(fromBytes == CSVLine.boolean(cell), "\(cell)")
    }

    @Test(arguments: [
        "1", "0", "-0", "+5", "-5", "007", "123456789012345678", "9223372036854775807", "9223372036854775808",
        "-9223372036854775808", "-9223372036854775809", "", "+", "-", "1.0", "1e3", "12a", " 1", "0x10", "١٢",
    ])
    func csvIdsAreReadAsIntOfTheString(_ cell: String) throws {
        let text = "id,name,lat,lon\n\(cell),A,1,2\n"
        let result: Result<[Int], CatalogError>
        do {
            result = .success(try CatalogLoader.parse(Array(text.utf8), source: "t.csv").landmarks.map(\.id))
        } catch {
            result = .failure(error)
        }
        // The loader trims spaces and tabs around the cell first.
        if let expected = Int(ASCIIBlanks.spacesAndTabs.trimming(cell)) {
            #expect(try result.get() == [expected], "\(cell)")
        } else {
            guard case .failure(let error) = result else {
                Issue.record("\(cell) read as \(result)")
                return
            }
            #expect(error.description.contains("has an id that is not an integer"))
        }
    }
}
