import Foundation
import Testing

@testable import LandmarkNear

/// The tutorial-JSON byte scanner against the full parser (JSONParser + TutorialCatalogFormat):
/// on valid and invalid catalogs, `CatalogLoader.parse` gives the same entries or the same
/// error message as the full path, and wherever the scanner answers, its entries are the
/// full path's.
@Suite(.suiteTimeLimit) struct CatalogReaderEquivalenceTests {
    /// The full path alone, as the loader took it before the scanner.
    static func fullPath(_ text: String) -> Result<LandmarkCatalog, CatalogError> {
        do {
            return .success(try CatalogLoader.parse(Array(text.utf8), source: "t.json", scanning: false))
        } catch {
            return .failure(error)
        }
    }

    static func loaded(_ bytes: [UInt8]) -> Result<LandmarkCatalog, CatalogError> {
        do { return .success(try CatalogLoader.parse(bytes, source: "t.json")) } catch { return .failure(error) }
    }

    static func check(_ text: String) {
        let expected = fullPath(text)
        let actual = loaded(Array(text.utf8))
        switch (expected, actual) {
        case (.success(let a), .success(let b)):
            #expect(a.landmarks == b.landmarks, "\(text.prefix(200))")
        case (.failure(let a), .failure(let b)):
            #expect(a.description == b.description, "\(text.prefix(200))")
        default:
            Issue.record("\(text.prefix(200)): full path \(expected), loader \(actual)")
        }
        let scanned = Array(text.utf8).withUnsafeBufferPointer { TutorialCatalogScanner.landmarks(in: $0) }
        if let scanned, case .success(let catalog) = expected {
            #expect(scanned == catalog.landmarks)
        }
    }

    static let rock = #""name": "Turtle Rock", "coordinates": {"latitude": 34.011286, "longitude": -116.166868}"#

    @Test(arguments: [
        // Valid: the shapes the scanner takes, and those it leaves to the parser.
        "[]", " [ ] \n",
        "[{\"id\": 1001, \(rock), \"isFavorite\": true, \"isFeatured\": true, \"category\": \"Rivers\", \"city\": \"Twentynine Palms\", \"state\": \"California\", \"park\": \"Joshua Tree National Park\", \"imageName\": \"turtlerock\"}]",
        "[{\(rock)}, {\"name\": \"Zürich 北京\", \"lat\": 47.37, \"lng\": 8.54, \"favorite\": \"yes\"}]",
        "[{\"id\": null, \(rock), \"isFavorite\": 1, \"extra\": [1, {\"deep\": true}]}]",
        "[{\"id\": \"1001\", \(rock)}]",
        "[{\"id\": 5.0, \"name\": \"A\", \"latitude\": 1, \"longitude\": 2, \"latitude\": 3, \"lat\": 9}]",
        "[{\"id\": 7, \"name\": \"A\", \"coordinates\": 5, \"lat\": 1, \"lon\": 2}]",
        "[{\"id\": 7, \"name\": \"A\", \"coordinates\": {\"lat\": 1, \"lon\": 2}, \"coordinates\": null, \"lat\": 3, \"lon\": 4}]",
        "[{\"id\": 7, \"name\": \"A\", \"coordinates\": null, \"coordinates\": {\"lat\": 1, \"lon\": 2}}]",
        "[{\"name\": \"Tab\\there\", \"lat\": 1e1, \"lon\": -2.5E-1, \"isFavorite\": null, \"favorite\": true}]",
        "[{\"name\": \"A\", \"lat\": \"12.5\", \"lon\": 2, \"isFeatured\": \"TRUE\"}]",
        "[{\"name\": \"T\\\"boli \\u00e9\\ud83d\\ude00\\/\\n\", \"lat\": 1, \"lon\": 2, \"city\": \"a\\\\b\", \"isFavorite\": \"y\\u0065s\"}]",
        "[{\"name\": \"A\\ud800\", \"lat\": 1, \"lon\": 2}]", "[{\"name\": \"A\\x\", \"lat\": 1, \"lon\": 2}]",
        "[{\"name\": \"A\\udc00\", \"lat\": 1, \"lon\": 2}]", "[{\"name\": \"A\\u12\", \"lat\": 1, \"lon\": 2}]",
        // Invalid: each refused with the full path's message.
        "[{\"id\": 1, \"lat\": 1, \"lon\": 2}]",
        "[{\"id\": 1, \"name\": 5, \"lat\": 1, \"lon\": 2}]",
        "[{\"id\": 1.5, \(rock)}]", "[{\"id\": \"x\", \(rock)}]", "[{\"id\": true, \(rock)}]",
        "[{\"name\": \"A\", \"lat\": \"abc\", \"lon\": 2}]", "[{\"name\": \"A\", \"lat\": null, \"lon\": 2}]",
        "[{\"name\": \"A\", \"lat\": 91, \"lon\": 2}]", "[{\"name\": \"A\", \"lat\": 1, \"lon\": 200}]",
        "[{\"id\": 1, \(rock)}, {\"id\": 1, \(rock)}]", "[{\"name\": \"  \", \"lat\": 1, \"lon\": 2}]",
        "[{\(rock)},]", "[{\(rock)}", "[{\"name\": \"A\", \"lat\": 01, \"lon\": 2}]", "[{\"name\": \"A\" \"lat\": 1}]",
        "[{\(rock)}] x", "[5]", "[\"x\"]", "[{\"name\": \"A\", \"lat\": 1, \"lon\": 2, \"u\": \"\\ud800\"}]",
        "[{\"name\": \"A\", \"lat\": 1e999, \"lon\": 2}]",
    ])
    func sameEntriesOrSameError(_ text: String) {
        Self.check(text)
    }

    @Test func invalidUTF8IsTheParsersError() {
        var bytes = Array("[{\"name\": \"A".utf8) + [0xC3, 0x28] + Array("\", \"lat\": 1, \"lon\": 2}]".utf8)
        let loaded = Self.loaded(bytes)
        guard case .failure(let error) = loaded else { Issue.record("accepted invalid UTF-8"); return }
        #expect(error.description.contains("UTF-8"))
        bytes = Array("[{\"name\": \"Å\", \"lat\": 1, \"lon\": 2}]".utf8)
        #expect(bytes.withUnsafeBufferPointer { TutorialCatalogScanner.landmarks(in: $0) }?.first?.name == "Å")
    }

    /// Every fourth place of the city sample (5,163) written as tutorial JSON, some names with
    /// escaped quotes: the scanner reads them all, as the full parser does.
    @Test func citySampleAsTutorialJSON() throws {
        let url = try #require(Bundle.module.url(forResource: "cities-sample", withExtension: "csv", subdirectory: "Fixtures"))
        let places = try CatalogLoader.load(path: url.path).landmarks.enumerated().filter { $0.offset % 4 == 0 }.map(\.element)
        var lines: [String] = []
        lines.reserveCapacity(places.count)
        for (i, landmark) in places.enumerated() {
            let name = JSONWriter.quoted(landmark.name + (i % 500 == 0 ? " \"q\"" : ""))
            lines.append(
                "{\"id\": \(landmark.id), \"name\": \(name), \"coordinates\": {\"latitude\": \(landmark.coordinate.latitude), \"longitude\": \(landmark.coordinate.longitude)}, \"isFavorite\": \(landmark.isFavorite)}"
            )
        }
        let text = "[\n" + lines.joined(separator: ",\n") + "\n]\n"
        let scanned = Array(text.utf8).withUnsafeBufferPointer { TutorialCatalogScanner.landmarks(in: $0) }
        #expect(scanned?.count == places.count)
        Self.check(text)
    }
}
