import Foundation
import Testing

@_spi(Inlining) @testable import LandmarkNearCore
@testable import LandmarkNearReaders
@testable import LandmarkNearServer

/// The byte scanners (tutorial JSON, GeoJSON) against the full parser (JSONParser +
/// TutorialCatalogFormat / GeoJSONCatalogFormat): on valid and invalid catalogs,
/// `CatalogLoader` gives the same entries or the same error message as the full path, from
/// bytes and from a mapped file, and wherever a scanner answers, its entries are the full
/// path's.
@Suite(.suiteTimeLimit) struct CatalogReaderEquivalenceTests {
    /// The full path alone, as the loader took it before the scanners.
    static func fullPath(_ bytes: [UInt8]) -> Result<LandmarkCatalog, CatalogError> {
        do {
            return .success(try CatalogLoader.parse(bytes, source: "t.json", scanning: false))
        } catch {
            return .failure(error)
        }
    }

    static func loaded(_ bytes: [UInt8]) -> Result<LandmarkCatalog, CatalogError> {
        do { return .success(try CatalogLoader.parse(bytes, source: "t.json")) } catch { return .failure(error) }
    }

    /// `CatalogLoader.load(path:)`, which maps the file; the source renamed to compare messages.
    static func loadedFromFile(_ bytes: [UInt8]) throws -> Result<LandmarkCatalog, CatalogError> {
        let directory = try makeTemporaryDirectory("catalog-equivalence")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("t.json").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        do { return .success(try CatalogLoader.load(path: path)) } catch {
            var error = error
            error.source = "t.json"
            return .failure(error)
        }
    }

    /// What a scanner reads from the bytes (after a BOM and blanks), nil when it leaves them
    /// to the full parser.
    static func scanned(_ bytes: [UInt8]) -> [Landmark]? {
        bytes.withUnsafeBufferPointer { buffer -> [Landmark]? in
            var start = ByteOrderMark.length(of: buffer)
            while start < buffer.count, ASCIIBlanks.whitespace.contains(buffer[start]) { start += 1 }
            guard start < buffer.count else { return nil }
            let body = UnsafeBufferPointer(rebasing: buffer[start...])
            let columns =
                buffer[start] == UInt8(ascii: "[")
                ? TutorialCatalogScanner.columns(in: body) : GeoJSONCatalogScanner.columns(in: body)
            return columns.map { columns in (0..<columns.count).map { columns.landmark(at: $0) } }
        }
    }

    static func check(_ bytes: [UInt8], file: Bool = false) throws {
        let expected = fullPath(bytes)
        let shown = String(decoding: bytes.prefix(200), as: UTF8.self)
        for actual in [loaded(bytes)] + (file ? [try loadedFromFile(bytes)] : []) {
            switch (expected, actual) {
            case (.success(let a), .success(let b)):
                #expect(a.landmarks == b.landmarks, "\(shown)")
                // Every field, one by one (== on Landmark compares Strings by canonical equivalence).
                for (x, y) in zip(a.landmarks, b.landmarks) {
                    #expect(Array(x.name.utf8) == Array(y.name.utf8) && x.id == y.id, "\(shown)")
                    #expect(x.coordinate.latitude.bitPattern == y.coordinate.latitude.bitPattern, "\(shown)")
                    #expect(x.coordinate.longitude.bitPattern == y.coordinate.longitude.bitPattern, "\(shown)")
                    #expect(x.category?.utf8.elementsEqual(y.category?.utf8 ?? "".utf8) ?? (y.category == nil), "\(shown)")
                }
            case (.failure(let a), .failure(let b)):
                #expect(a.description == b.description, "\(shown)")
                #expect(a.kind == b.kind)
            default:
                Issue.record("\(shown): full path \(expected), loader \(actual)")
            }
        }
        if let scanned = scanned(bytes) {
            guard case .success(let catalog) = expected else {
                // A scanner may read a catalog the checks then refuse (a duplicate id, a
                // latitude out of range): the loader then takes the full path for the message.
                #expect(throws: CatalogError.self) { try LandmarkCatalog(scanned) }
                return
            }
            #expect(scanned == catalog.landmarks, "\(shown)")
        }
    }

    static let rock = #""name": "Turtle Rock", "coordinates": {"latitude": 34.011286, "longitude": -116.166868}"#

    @Test(arguments: [
        // Valid: the shapes the scanner takes, and those it leaves to the parser.
        "[]", " [ ] \n", "\u{FEFF}[{\(rock)}]", "\u{FEFF}\n\n  [{\(rock)}, {\"name\": 5}]",
        "[{\"id\": 1001, \(rock), \"isFavorite\": true, \"isFeatured\": true, \"category\": \"Rivers\", \"city\": \"Twentynine Palms\", \"state\": \"California\", \"park\": \"Joshua Tree National Park\", \"imageName\": \"turtlerock\"}]",
        "[{\(rock)}, {\"name\": \"Zürich 北京\", \"lat\": 47.37, \"lng\": 8.54, \"favorite\": \"yes\"}]",
        "[{\"id\": null, \(rock), \"isFavorite\": 1, \"extra\": [1, {\"deep\": true}]}]",
        "[{\"id\": \"1001\", \(rock)}]",
        "[{\"id\": 5.0, \"name\": \"A\", \"latitude\": 1, \"longitude\": 2, \"latitude\": 3, \"lat\": 9}]",
        "[{\"id\": 7, \"name\": \"A\", \"coordinates\": 5, \"lat\": 1, \"lon\": 2}]",
        "[{\"id\": 7, \"name\": \"A\", \"coordinates\": [1, 2], \"lat\": 1, \"lon\": 2}]",
        "[{\"id\": 7, \"name\": \"A\", \"coordinates\": {\"lat\": 1, \"lon\": 2}, \"coordinates\": null, \"lat\": 3, \"lon\": 4}]",
        "[{\"id\": 7, \"name\": \"A\", \"coordinates\": null, \"coordinates\": {\"lat\": 1, \"lon\": 2}}]",
        "[{\"id\": 7, \"name\": \"A\", \"coordinates\": {\"lat\": 1, \"lon\": 2, \"coordinates\": {\"lat\": 5}, \"x\": [[]]}}]",
        "[{\"name\": \"Tab\\there\", \"lat\": 1e1, \"lon\": -2.5E-1, \"isFavorite\": null, \"favorite\": true}]",
        "[{\"name\": \"A\", \"lat\": \"12.5\", \"lon\": 2, \"isFeatured\": \"TRUE\"}]",
        "[{\"name\": \"T\\\"boli \\u00e9\\ud83d\\ude00\\/\\n\", \"lat\": 1, \"lon\": 2, \"city\": \"a\\\\b\", \"isFavorite\": \"y\\u0065s\"}]",
        "[{\"name\": \"A\\u0000B\", \"lat\": 1, \"lon\": 2, \"park\": \"\\uD834\\uDD1E\"}]",
        "[{\"name\": \"A\\ud800\", \"lat\": 1, \"lon\": 2}]", "[{\"name\": \"A\\x\", \"lat\": 1, \"lon\": 2}]",
        "[{\"name\": \"A\\udc00\", \"lat\": 1, \"lon\": 2}]", "[{\"name\": \"A\\u12\", \"lat\": 1, \"lon\": 2}]",
        "[{\"name\": \"A\\ud83d\\u0041\", \"lat\": 1, \"lon\": 2}]",
        "[{\"na\\u006de\": \"Escaped key\", \"lat\": 1, \"lon\": 2}]",
        "[{\"name\": \"A\", \"lat\": 1e2, \"lon\": -0, \"id\": -0}]", "[{\"name\": \"A\", \"lat\": -0.0, \"lon\": 0e0}]",
        "[{\"name\": \"A\", \"lat\": 12.3456789012345678901234567890, \"lon\": 2.2250738585072011e-308}]",
        "[{\"name\": \"A\", \"lat\": 0.\(String(repeating: "0", count: 600))1, \"lon\": 2}]",
        "[{\"name\": \"A\", \"lat\": 1, \"lon\": 2, \"id\": 9007199254740993}]",
        "[{\"name\": \"A\", \"lat\": 1, \"lon\": 2, \"id\": 1e300}]",
        "[{\"name\": \"A\", \"name\": \"B\", \"lat\": 1, \"lon\": 2, \"category\": 5, \"city\": null, \"state\": true}]",
        "[{\"name\": \"A\", \"lat\": 1, \"lon\": 2, \"u\": {\"a\": {\"b\": [1, [2, {\"c\": \"\\u00e9\"}]]}}}]",
        "[{\"name\": \"A\", \"lat\": 1, \"lon\": 2, \"u\": \(String(repeating: "[", count: 100))\(String(repeating: "]", count: 100))}]",
        "[{\"name\": \"A\", \"lat\": 1, \"lon\": 2, \"u\": \(String(repeating: "[", count: 600))\(String(repeating: "]", count: 600))}]",
        "[{\"name\": \"A\", \"lat\": 1, \"lon\": 2, \"radius\": \"2km\"}]", "[{\"name\": \"A\", \"lat\": 1, \"lon\": 2, \"radius\": 300}]",
        "[{\"name\": \"\(String(repeating: "é", count: 200))\", \"lat\": 1, \"lon\": 2}]",
        "[{}]", "[{\"name\": \"A\"}]",
        // Invalid: each refused with the full path's message.
        "[{\"id\": 1, \"lat\": 1, \"lon\": 2}]",
        "[{\"id\": 1, \"name\": 5, \"lat\": 1, \"lon\": 2}]", "[{\"id\": 1, \"name\": {\"x\": 1}, \"lat\": 1, \"lon\": 2}]",
        "[{\"id\": 1.5, \(rock)}]", "[{\"id\": \"x\", \(rock)}]", "[{\"id\": true, \(rock)}]", "[{\"id\": [1], \(rock)}]",
        "[{\"name\": \"A\", \"lat\": \"abc\", \"lon\": 2}]", "[{\"name\": \"A\", \"lat\": null, \"lon\": 2}]",
        "[{\"name\": \"A\", \"lat\": true, \"lon\": 2}]", "[{\"name\": \"A\", \"lat\": [1], \"lon\": 2}]",
        "[{\"name\": \"A\", \"lat\": 91, \"lon\": 2}]", "[{\"name\": \"A\", \"lat\": 1, \"lon\": 200}]",
        "[{\"name\": \"A\", \"lat\": 1e999, \"lon\": 2}]", "[{\"name\": \"A\", \"lat\": -1e999, \"lon\": 2}]",
        "[{\"id\": 1, \(rock)}, {\"id\": 1, \(rock)}]", "[{\"id\": 2, \(rock)}, {\"id\": 1, \(rock)}, {\"id\": 2, \(rock)}]",
        "[{\"name\": \"  \", \"lat\": 1, \"lon\": 2}]", "[{\"name\": \"\", \"lat\": 1, \"lon\": 2}]",
        "[{\"name\": \"\\u00a0\\u2003\", \"lat\": 1, \"lon\": 2}]",
        "[{\(rock)},]", "[{\(rock)}", "[{\(rock)}, ", "[{\"name\": \"Tur", "[{\"name\": \"A\", \"lat\": 1.",
        "[{\"name\": \"A\", \"lat\": 01, \"lon\": 2}]", "[{\"name\": \"A\" \"lat\": 1}]",
        "[{\"name\": \"A\", \"lat\": .5, \"lon\": 2}]", "[{\"name\": \"A\", \"lat\": 1, \"lon\": +2}]",
        "[{\"name\": \"A\", \"lat\": 1, \"lon\": 2, \"x\": tru}]", "[{\"name\": \"A\", \"lat\": 1, \"lon\": 2, \"x\": nul}]",
        "[{\(rock)}] x", "[{\(rock)}]]", "[{\(rock)}] {}", "[5]", "[\"x\"]", "[null]", "[[]]",
        "[{\"name\": \"A\", \"lat\": 1, \"lon\": 2, \"u\": \"\\ud800\"}]",
        "[{\"name\": \"A\tB\", \"lat\": 1, \"lon\": 2}]",
        "[{\"name\": \"A\", \"lat\": 1, \"lon\": 2, \"radius\": \"far\"}]",
        // 25 problems: 20 listed, then "and 5 more", in file order.
        "[" + (0..<25).map { "{\"id\": \($0 % 3), \"name\": \"\", \"lat\": \($0 * 10), \"lon\": 2}" }.joined(separator: ",\n") + "]",
    ])
    func tutorialSameEntriesOrSameError(_ text: String) throws {
        try Self.check(Array(text.utf8))
    }

    static let point = #""geometry": {"type": "Point", "coordinates": [-116.166868, 34.011286]}"#

    @Test(arguments: [
        // Valid GeoJSON.
        "{\"type\": \"FeatureCollection\", \"features\": []}", "{\"features\": [], \"type\": \"FeatureCollection\"}",
        "\u{FEFF}{\"type\": \"FeatureCollection\", \"features\": [{\"type\": \"Feature\", \(point), \"properties\": {\"id\": 1001, \"name\": \"Turtle Rock\", \"isFavorite\": true}}]}",
        "{\"type\": \"FeatureCollection\", \"features\": [{\(point), \"id\": 7, \"properties\": {\"name\": \"A\"}}, {\(point), \"properties\": {\"name\": \"B\"}}]}",
        "{\"type\": \"FeatureCollection\", \"features\": [{\(point), \"id\": 7, \"properties\": {\"id\": null, \"name\": \"A\"}}]}",
        "{\"type\": \"FeatureCollection\", \"features\": [{\(point), \"id\": \"12\", \"properties\": {\"name\": \"A\"}}]}",
        "{\"type\": \"FeatureCollection\", \"features\": [{\"geometry\": {\"coordinates\": [1, 2, 300.5, [4]], \"type\": \"Point\", \"bbox\": [1]}, \"properties\": {\"name\": \"Alt\"}}]}",
        "{\"type\": \"FeatureCollection\", \"features\": [{\"geometry\": {\"type\": \"Point\", \"coordinates\": [\"1.5\", 2]}, \"properties\": {\"name\": \"S\"}}]}",
        "{\"type\": \"FeatureCollection\", \"crs\": {\"type\": \"name\", \"properties\": {\"name\": \"EPSG:4326\"}}, \"bbox\": [0, 0, 1, 1], \"features\": [{\(point), \"properties\": {\"name\": \"A\", \"tags\": {\"a\": [1, {\"b\": null}]}, \"coordinates\": {\"lat\": 5}}}]}",
        "{\"type\": \"FeatureCollection\", \"features\": [{\(point), \"properties\": {\"name\": \"A\"}, \"properties\": {\"name\": \"B\"}}]}",
        "{\"type\": \"FeatureCollection\", \"features\": [{\"geometry\": {\"type\": \"Point\", \"coordinates\": [5, 6]}, \(point), \"properties\": {\"name\": \"Last geometry\"}}]}",
        "{\"type\": \"FeatureCollection\", \"features\": [{\(point), \"properties\": {\"name\": \"N\\u00e9 \\ud83d\\ude00\", \"city\": \"\\\"q\\\"\"}}]}",
        "{\"type\": \"FeatureCollection\", \"features\": [{\(point), \"properties\": {\"name\": \"A\", \"radius\": 250}}]}",
        "{\"type\": \"Feature\\u0043ollection\", \"features\": [{\(point), \"properties\": {\"name\": \"A\"}}]}",
        "{\"type\": \"FeatureCollection\", \"features\": [{\(point), \"properties\": {\"name\": \"A\", \"lat\": 1e2, \"isFeatured\": 1}}]}",
        // Invalid GeoJSON: the full path's messages.
        "{}", "{\"type\": \"Feature\"}", "{\"type\": \"FeatureCollection\"}", "{\"type\": \"FeatureCollection\", \"features\": {}}",
        "{\"type\": \"FeatureCollection\", \"features\": [], \"features\": [{\(point), \"properties\": {\"name\": \"A\"}}]}",
        "{\"type\": \"FeatureCollection\", \"features\": [5]}", "{\"type\": \"FeatureCollection\", \"features\": [{\(point)}]}",
        "{\"type\": \"FeatureCollection\", \"features\": [{\(point), \"properties\": {\"name\": \"A\"}}], \"type\": \"Other\"}",
        "{\"type\": \"FeatureCollection\", \"features\": [{\"geometry\": {\"type\": \"LineString\", \"coordinates\": [[1, 2]]}, \"properties\": {\"name\": \"L\"}}]}",
        "{\"type\": \"FeatureCollection\", \"features\": [{\"geometry\": {\"type\": \"Point\", \"coordinates\": [1]}, \"properties\": {\"name\": \"One\"}}]}",
        "{\"type\": \"FeatureCollection\", \"features\": [{\"geometry\": null, \"properties\": {\"name\": \"None\"}}]}",
        "{\"type\": \"FeatureCollection\", \"features\": [{\"geometry\": {\"type\": \"Point\", \"coordinates\": [200, 2]}, \"properties\": {\"name\": \"Far\"}}]}",
        "{\"type\": \"FeatureCollection\", \"features\": [{\"geometry\": {\"type\": \"Point\", \"coordinates\": [null, 2]}, \"properties\": {\"name\": \"Null\"}}]}",
        "{\"type\": \"FeatureCollection\", \"features\": [{\(point), \"properties\": {\"id\": 1, \"name\": \"A\"}}, {\(point), \"properties\": {\"id\": 1, \"name\": \"B\"}}]}",
        "{\"type\": \"FeatureCollection\", \"features\": [{\(point), \"properties\": {\"id\": \"x\", \"name\": \"A\"}}]}",
        "{\"type\": \"FeatureCollection\", \"features\": [{\(point), \"properties\": {\"name\": \"A\"}},]}",
        "{\"type\": \"FeatureCollection\", \"features\": [{\(point), \"properties\": {\"name\": \"A\"}}]",
        "{\"type\": \"FeatureCollection\", \"features\": [{\(point), \"properties\": {\"name\": \"A\"}}]} []",
        "{\"type\": \"FeatureCollection\", \"features\": [{\(point), \"properties\": {\"name\": \"A\", \"radius\": -1}}]}",
        "{\"type\": \"FeatureCollection\", \"features\": [{\(point), \"properties\": {\"name\": \"A\\ud800\"}}]}",
    ])
    func geoJSONSameEntriesOrSameError(_ text: String) throws {
        try Self.check(Array(text.utf8))
    }

    @Test func invalidUTF8IsTheParsersError() throws {
        for prefix in [
            "[{\"name\": \"A", "{\"type\": \"FeatureCollection\", \"features\": [{\(Self.point), \"properties\": {\"name\": \"A",
        ] {
            let suffix = prefix.hasPrefix("[") ? "\", \"lat\": 1, \"lon\": 2}]" : "\"}}]}"
            let bytes = Array(prefix.utf8) + [0xC3, 0x28] + Array(suffix.utf8)
            guard case .failure(let error) = Self.loaded(bytes) else {
                Issue.record("accepted invalid UTF-8")
                continue
            }
            #expect(error.description.contains("UTF-8"))
            try Self.check(bytes)
        }
        let bytes = Array("[{\"name\": \"Å\", \"lat\": 1, \"lon\": 2}]".utf8)
        #expect(Self.scanned(bytes)?.first?.name == "Å")
    }

    /// The common shapes are the scanners' (else the equivalence above would test only the
    /// full path against itself).
    @Test func theScannersTakeTheUsualShapes() throws {
        let tutorial = "[{\"id\": 1001, \(Self.rock), \"isFavorite\": true, \"description\": {\"long\": [\"text\"]}}]"
        #expect(Self.scanned(Array(tutorial.utf8))?.count == 1)
        let geoJSON =
            "{\"type\": \"FeatureCollection\", \"features\": [{\"type\": \"Feature\", \(Self.point), \"properties\": {\"name\": \"A\", \"tags\": [1]}}]}"
        #expect(Self.scanned(Array(geoJSON.utf8))?.count == 1)
    }

    /// Entries whose layouts change from one to the next (key order, blanks around the colon,
    /// aliases, unknown keys, a key given twice, long and escaped texts): the scanners
    /// remember each entry's keys for the next (`CatalogByteScanner.key()`) and write a
    /// landmark's texts at once where they can (`CatalogColumns`), and must read every layout
    /// as the parser does, however the entry before it was laid out.
    @Test(arguments: [1, 2, 3])
    func changingLayoutsReadAsTheParserReadsThem(seed: UInt64) throws {
        var rng = IndexTestSupport.SeededGenerator(seed: seed)
        func pick<T>(_ choices: [T]) -> T { choices[Int.random(in: 0..<choices.count, using: &rng)] }
        let colons = [": ", ":", " : ", ":\n    ", "  :  "]
        func member(_ key: String, _ value: String) -> String { "\"\(key)\"" + pick(colons) + value }
        var tutorial: [String] = []
        var features: [String] = []
        for n in 1...300 {
            let name = pick([
                "Place \(n)", "Zürich \(n) 北京", "Tab\\t\(n)", String(repeating: "long ", count: 30) + "\(n)",
                String(repeating: "é", count: 70) + "\(n)", "Q\\\"\(n)\\\"",
            ])
            let latitude = Double(n % 170) - 84.5 + Double(n) / 1000
            let longitude = Double(n % 350) - 174.25
            var members = [
                member("id", "\(n)"), member("name", "\"\(name)\""),
                pick([
                    member("coordinates", "{" + member("latitude", "\(latitude)") + ", " + member("longitude", "\(longitude)") + "}"),
                    member("coordinates", "{" + member("lat", "\(latitude)") + "," + member("lng", "\(longitude)") + "}"),
                    member("lat", "\(latitude)") + ", " + member("lon", "\(longitude)"),
                ]),
            ]
            if Bool.random(using: &rng) { members.append(member("isFavorite", pick(["true", "false", "1", "null"]))) }
            if Bool.random(using: &rng) { members.append(member("category", pick(["\"Places\"", "\"\"", "5", "\"Caf\\u00e9s\""]))) }
            if Bool.random(using: &rng) { members.append(member("imageName", "\"place\(n)\"")) }
            if Bool.random(using: &rng) { members.append(member("anExtraKeyOfManyBytes", "[1, {\"x\": null}]")) }
            if n % 7 == 0 { members.append(member("name", "\"Renamed \(n)\"")) }
            if Bool.random(using: &rng) { members.shuffle(using: &rng) }
            tutorial.append("{" + members.joined(separator: pick([", ", ",", " ,\n  "])) + "}")
            var properties = [member("id", "\(n)"), member("name", "\"\(name)\"")]
            if Bool.random(using: &rng) { properties.append(member("isFavorite", "true")) }
            if Bool.random(using: &rng) { properties.shuffle(using: &rng) }
            var feature = [
                member("type", "\"Feature\""),
                member("geometry", "{" + member("type", "\"Point\"") + ", " + member("coordinates", "[\(longitude), \(latitude)]") + "}"),
                member("properties", "{" + properties.joined(separator: ", ") + "}"),
            ]
            if Bool.random(using: &rng) { feature.shuffle(using: &rng) }
            features.append("{" + feature.joined(separator: pick([", ", ","])) + "}")
        }
        let documents = [
            "[\n" + tutorial.joined(separator: ",\n") + "\n]\n",
            "{\"type\": \"FeatureCollection\", \"features\": [\n" + features.joined(separator: ",\n") + "\n]}\n",
        ]
        for text in documents {
            #expect(Self.scanned(Array(text.utf8))?.count == 300)
            try Self.check(Array(text.utf8))
        }
    }

    /// Every fourth place of the city sample (5,163) written as tutorial JSON and as GeoJSON,
    /// some names with escaped quotes, through the mapped file too.
    @Test func citySample() throws {
        let url = try #require(Bundle.module.url(forResource: "cities-sample", withExtension: "csv", subdirectory: "Fixtures"))
        let places = try CatalogLoader.load(path: url.path).landmarks.enumerated().filter { $0.offset % 4 == 0 }.map(\.element)
        var tutorial: [String] = []
        var features: [String] = []
        for (i, landmark) in places.enumerated() {
            let name = JSONWriter.quoted(landmark.name + (i % 500 == 0 ? " \"q\"" : ""))
            let (latitude, longitude) = (landmark.coordinate.latitude, landmark.coordinate.longitude)
            tutorial.append(
                "{\"id\": \(landmark.id), \"name\": \(name), \"coordinates\": {\"latitude\": \(latitude), \"longitude\": \(longitude)}, \"isFavorite\": \(landmark.isFavorite)}"
            )
            features.append(
                "{\"type\": \"Feature\", \"geometry\": {\"type\": \"Point\", \"coordinates\": [\(longitude), \(latitude)]}, \"properties\": {\"id\": \(landmark.id), \"name\": \(name)}}"
            )
        }
        let documents = [
            "[\n" + tutorial.joined(separator: ",\n") + "\n]\n",
            "{\"type\": \"FeatureCollection\", \"features\": [\n" + features.joined(separator: ",\n") + "\n]}\n",
        ]
        for text in documents {
            #expect(Self.scanned(Array(text.utf8))?.count == places.count)
            try Self.check(Array(text.utf8), file: true)
        }
    }

    /// Files of megabytes, whose pages the scanners let go of as they pass them: read
    /// whole, and refused (a duplicate id in the last entry) with the full path's message,
    /// which reads the pages again.
    @Test(arguments: [false, true])
    func largeMappedFile(duplicateAtTheEnd: Bool) throws {
        let count = 60_000
        var text = "[\n"
        for i in 1...count {
            let id = duplicateAtTheEnd && i == count ? 1 : i
            text +=
                "{\"id\": \(id), \"name\": \"Place \(i) \\u00e9\", \"coordinates\": {\"latitude\": \(Double(i % 180) - 89.5), \"longitude\": \(Double(i % 360) - 179.25)}}"
            text += i == count ? "\n]\n" : ",\n"
        }
        #expect(text.utf8.count > 5 << 20)
        try Self.check(Array(text.utf8), file: true)
        guard case .success(let catalog) = try Self.loadedFromFile(Array(text.utf8)) else {
            #expect(duplicateAtTheEnd)
            return
        }
        #expect(catalog.count == count && catalog[count - 1].name == "Place \(count) é")
    }
}
