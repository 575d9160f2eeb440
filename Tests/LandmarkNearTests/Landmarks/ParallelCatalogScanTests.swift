import Foundation
import Testing

@_spi(Inlining) @testable import LandmarkNearCore
@testable import LandmarkNearReaders
@testable import LandmarkNearServer

/// The two-thread scan (`ParallelCatalogScan`) against the one-thread scan and the full
/// parser: the same catalog, every field, or the same error message, for tutorial JSON,
/// GeoJSON and CSV, wherever the seam falls (a real boundary, inside a string holding `},{`,
/// deeper than the entries, at a newline inside a quoted CSV field), from bytes and from a
/// mapped file; and the seam is taken only where the first half's scan stopped on it.
@Suite(.suiteTimeLimit) struct ParallelCatalogScanTests {
    // MARK: Loading three ways

    static func load(_ bytes: [UInt8], splitAbove: Int, scanning: Bool = true) -> Result<LandmarkCatalog, CatalogError> {
        do { return .success(try CatalogLoader.parse(bytes, source: "t", scanning: scanning, splitAbove: splitAbove)) } catch {
            return .failure(error)
        }
    }

    /// Through a mapped file (each half maps it on its own thread and lets its pages go).
    static func loadFile(_ bytes: [UInt8], splitAbove: Int) throws -> Result<LandmarkCatalog, CatalogError> {
        let directory = try makeTemporaryDirectory("parallel-scan")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("t").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        do { return .success(try CatalogLoader.load(path: path, splitAbove: splitAbove)) } catch {
            var error = error
            error.source = "t"
            return .failure(error)
        }
    }

    /// Every field of every landmark, byte for byte, and the lookups made from them.
    static func expectSame(
        _ a: Result<LandmarkCatalog, CatalogError>, _ b: Result<LandmarkCatalog, CatalogError>, _ what: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        switch (a, b) {
        case (.success(let x), .success(let y)):
            #expect(x.count == y.count, "\(what)", sourceLocation: sourceLocation)
            for (p, q) in zip(x.landmarks, y.landmarks) {
                let same =
                    p.id == q.id && Array(p.name.utf8) == Array(q.name.utf8)
                    && p.coordinate.latitude.bitPattern == q.coordinate.latitude.bitPattern
                    && p.coordinate.longitude.bitPattern == q.coordinate.longitude.bitPattern
                    && p.isFavorite == q.isFavorite && p.isFeatured == q.isFeatured && p.radius == q.radius
                    && [p.category, p.city, p.state, p.park, p.imageName].map { $0.map { Array($0.utf8) } }
                        == [q.category, q.city, q.state, q.park, q.imageName].map { $0.map { Array($0.utf8) } }
                if !same {
                    Issue.record("\(what): \(p) != \(q)", sourceLocation: sourceLocation)
                    return
                }
            }
            #expect(x.favoriteIndices == y.favoriteIndices, "\(what)", sourceLocation: sourceLocation)
            for i in stride(from: 0, to: x.count, by: max(1, x.count / 500)) {
                #expect(x.index(ofID: x.id(at: i)) == y.index(ofID: y.id(at: i)), "\(what)", sourceLocation: sourceLocation)
            }
        case (.failure(let x), .failure(let y)):
            #expect(x.description == y.description, "\(what)", sourceLocation: sourceLocation)
            #expect(x.kind == y.kind, "\(what)", sourceLocation: sourceLocation)
        default:
            Issue.record("\(what): \(a) vs \(b)", sourceLocation: sourceLocation)
        }
    }

    /// Split (threshold 0, from bytes and from a file), one thread, and for JSON the full
    /// parser: all the same.
    static func check(_ text: String, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let bytes = Array(text.utf8)
        let oneThread = load(bytes, splitAbove: .max)
        expectSame(oneThread, load(bytes, splitAbove: 0), "\(what), split", sourceLocation: sourceLocation)
        expectSame(oneThread, try loadFile(bytes, splitAbove: 0), "\(what), split, file", sourceLocation: sourceLocation)
        if text.first == "[" || text.first == "{" {
            expectSame(oneThread, load(bytes, splitAbove: 0, scanning: false), "\(what), full parser", sourceLocation: sourceLocation)
        }
    }

    // MARK: Catalogs

    struct Place {
        var id: Int?
        var name: String
        var latitude: Double
        var longitude: Double
        var isFavorite = false
        var note: String?
    }

    static func places(_ count: Int, ids: Bool = true) -> [Place] {
        (0..<count).map { i in
            Place(
                id: ids ? 1000 + i : nil, name: i % 7 == 3 ? "Zürich 北京 \(i) 😀" : "Place \(i)",
                latitude: Double((i * 37) % 17_000) / 100 - 85, longitude: Double((i * 53) % 35_000) / 100 - 175,
                isFavorite: i % 5 == 0)
        }
    }

    static func tutorial(_ places: [Place]) -> String {
        "[\n"
            + places.map { p in
                var members = [String]()
                if let id = p.id { members.append("\"id\": \(id)") }
                members.append("\"name\": \(JSONWriter.quoted(p.name))")
                members.append("\"coordinates\": {\"latitude\": \(p.latitude), \"longitude\": \(p.longitude)}")
                members.append("\"isFavorite\": \(p.isFavorite)")
                if let note = p.note { members.append("\"note\": \(JSONWriter.quoted(note))") }
                return "{" + members.joined(separator: ", ") + "}"
            }.joined(separator: ",\n") + "\n]\n"
    }

    static func geoJSON(_ places: [Place], typeLast: Bool = false) -> String {
        let features = places.map { p in
            var properties = [String]()
            if let id = p.id { properties.append("\"id\": \(id)") }
            properties.append("\"name\": \(JSONWriter.quoted(p.name))")
            properties.append("\"isFavorite\": \(p.isFavorite)")
            if let note = p.note { properties.append("\"note\": \(JSONWriter.quoted(note))") }
            return
                "{\"type\": \"Feature\", \"geometry\": {\"type\": \"Point\", \"coordinates\": [\(p.longitude), \(p.latitude)]}, \"properties\": {\(properties.joined(separator: ", "))}}"
        }.joined(separator: ",\n")
        return typeLast
            ? "{\"features\": [\n\(features)\n], \"type\": \"FeatureCollection\"}\n"
            : "{\"type\": \"FeatureCollection\", \"bbox\": [{\"a\": 1}, {\"b\": 2}], \"features\": [\n\(features)\n]}\n"
    }

    static func csv(_ places: [Place]) -> String {
        let hasIDs = places.contains { $0.id != nil }
        let header = (hasIDs ? "id," : "") + "lat,lon,name,isFavorite,category\n"
        return header
            + places.map { p in
                let name =
                    p.name.contains(",") || p.name.contains("\"") || p.name.contains("\n")
                    ? "\"" + p.name.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : p.name
                return (p.id.map { "\($0)," } ?? "") + "\(p.latitude),\(p.longitude),\(name),\(p.isFavorite),\(p.note ?? "")"
            }.joined(separator: "\n") + "\n"
    }

    // MARK: Every seam

    /// Where each entry of a JSON document starts (the only real seams).
    static func entryStarts(_ text: String) -> Set<Int> { Set(JSONEntryLocations.offsets(in: Array(text.utf8))) }

    /// A small document with strings that hold `},{` and `}, {` (where a seam is found when
    /// the middle falls into them), unknown members holding arrays of objects, escapes and
    /// entries without ids; the second half starts at every offset in turn. Only at a real
    /// entry start are the halves merged (fails if the first half's check of the seam is
    /// taken out), and everywhere the columns are the one-thread scan's.
    @Test(arguments: [JSONShapeCase.tutorial, .geoJSON, .geoJSONTypeLast])
    func everySeamOfAJSONDocument(_ shape: JSONShapeCase) throws {
        var places = Self.places(9)
        places[2].note = "a},{\"b\": 1}, {c"
        places[4].id = nil
        places[5].note = "q\\\"},{\"name\": \"Fake\", \"lat\": 1, \"lon\": 2}, {"
        places[7].id = nil
        var text = shape.document(places)
        // An unknown member holding objects: `},{` one level deeper than the entries.
        text = text.replacingOccurrences(
            of: "\"isFavorite\": true", with: "\"isFavorite\": true, \"x\": [{\"name\": \"In\", \"lat\": 1, \"lon\": 2}, {\"y\": [{}, {}]}]"
        )
        let bytes = Array(text.utf8)
        let starts = Self.entryStarts(text)
        #expect(starts.count == places.count)
        try bytes.withUnsafeBufferPointer { body in
            let whole = try #require(shape.columns(body))
            let expected = (0..<whole.count).map(whole.landmark(at:))
            var split = 0
            for seam in 1..<body.count {
                let scan = ParallelCatalogScan.json(
                    shape.shape, in: body, file: nil, shared: .array(bytes), offset: 0, minimumBytes: 0, seam: seam)
                let columns = try #require(scan.columns, "seam \(seam): \(scan.path)")
                #expect((0..<columns.count).map(columns.landmark(at:)) == expected, "seam \(seam)")
                #expect(scan.path == (starts.contains(seam) ? .split : .readOnAlone), "seam \(seam)")
                if scan.path == .split { split += 1 }
            }
            #expect(split == places.count)
        }
    }

    enum JSONShapeCase: Sendable, CaseIterable {
        case tutorial, geoJSON, geoJSONTypeLast

        func document(_ places: [Place]) -> String {
            switch self {
            case .tutorial: return ParallelCatalogScanTests.tutorial(places)
            case .geoJSON: return ParallelCatalogScanTests.geoJSON(places)
            case .geoJSONTypeLast: return ParallelCatalogScanTests.geoJSON(places, typeLast: true)
            }
        }

        var shape: ParallelCatalogScan.JSONShape { self == .tutorial ? .tutorial : .geoJSON }

        func columns(_ body: UnsafeBufferPointer<UInt8>) -> CatalogColumns? {
            self == .tutorial ? TutorialCatalogScanner.columns(in: body) : GeoJSONCatalogScanner.columns(in: body)
        }
    }

    /// CSV: every line start is a seam (rows end at each newline, in quotes too), and the
    /// rows are the one-thread rows, with their lines; any other offset is not a seam.
    @Test(arguments: [true, false])
    func everySeamOfACSVFile(ids: Bool) throws {
        var places = Self.places(8, ids: ids)
        places[3].name = "Quoted, \"with\" a comma"
        places[5].note = "Lakes"
        let text = Self.csv(places)
        let bytes = Array(text.utf8)
        try bytes.withUnsafeBufferPointer { body in
            var problems = CatalogProblems(source: "t")
            let whole = try CSVCatalogFormat.landmarks(in: body, source: "t", problems: &problems)
            let expected = (0..<whole.columns.count).map(whole.columns.landmark(at:))
            let headerEnd = bytes.firstIndex(of: 0x0A)! + 1
            for seam in 1..<body.count {
                let scan = ParallelCatalogScan.csv(in: body, source: "t", shared: .array(bytes), offset: 0, minimumBytes: 0, seam: seam)
                guard body[seam - 1] == 0x0A, seam >= headerEnd else {
                    #expect(scan.rows == nil && scan.path == .oneThread, "seam \(seam)")
                    continue
                }
                let rows = try #require(scan.rows, "seam \(seam)")
                #expect(scan.path == .split)
                #expect((0..<rows.columns.count).map(rows.columns.landmark(at:)) == expected, "seam \(seam)")
                #expect(rows.lines == whole.lines && rows.count == whole.count && rows.lineCount == whole.lineCount, "seam \(seam)")
            }
        }
    }

    // MARK: Whole loads, split and not

    static let count = 400

    /// How the two-thread scan takes `text` (threshold 0).
    static func path(_ format: FormatCase, _ text: String) -> ParallelCatalogScan.Path {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { body in
            switch format {
            case .csv:
                return ParallelCatalogScan.csv(in: body, source: "t", shared: .array(bytes), offset: 0, minimumBytes: 0).path
            case .tutorial, .geoJSON:
                return ParallelCatalogScan.json(
                    format == .tutorial ? .tutorial : .geoJSON, in: body, file: nil, shared: .array(bytes), offset: 0,
                    minimumBytes: 0
                ).path
            }
        }
    }

    @Test(arguments: [FormatCase.tutorial, .geoJSON, .csv])
    func validCatalogs(_ format: FormatCase) throws {
        var texts = [format.text(Self.places(Self.count)), format.text(Self.places(Self.count, ids: false))]
        // Unicode names at the seam: every place near the middle has one.
        var places = Self.places(Self.count)
        for i in (Self.count / 2 - 10)...(Self.count / 2 + 10) { places[i].name = "Ünïcødé ✓ 北京 \(i) 😀" }
        texts.append(format.text(places))
        for (text, what) in zip(texts, ["ids", "ids by position", "unicode names at the seam"]) {
            #expect(Self.path(format, text) == .split, "\(what)")
            try Self.check(text, what)
        }
    }

    /// The middle falls inside one long text: a JSON string holding `},{` (and `}, {`), a CSV
    /// quoted field holding newlines (each newline ends a row there, as on one thread).
    @Test(arguments: [FormatCase.tutorial, .geoJSON, .csv])
    func middleInsideAText(_ format: FormatCase) throws {
        var places = Self.places(40)
        let filler = String(repeating: "x},{\"name\": \"F\", \"lat\": 1, \"lon\": 2}, {y", count: 300)
        if format == .csv {
            places[20].name = "\"" + String(repeating: "line\n", count: 2000) + "\""
        } else {
            places[20].note = filler
        }
        let text = format.text(places)
        try Self.check(text, "middle inside a text")
        // JSON: the seam found is inside the string, which the first half passes and reads on
        // alone. CSV: the rows of the quoted lines are refused, on one thread.
        #expect(Self.path(format, text) == (format == .csv ? .refused : .readOnAlone))
    }

    /// Problems only in the second half, and a duplicate id across the halves: the
    /// one-thread messages, with their lines.
    @Test(arguments: [FormatCase.tutorial, .geoJSON, .csv])
    func problemsInTheSecondHalf(_ format: FormatCase) throws {
        var places = Self.places(Self.count)
        places[Self.count - 3].latitude = 91
        try Self.check(format.text(places), "latitude out of range near the end")

        places = Self.places(Self.count)
        places[Self.count - 2].id = places[5].id
        try Self.check(format.text(places), "duplicate id across the halves")

        places = Self.places(Self.count)
        places[Self.count * 3 / 4].name = " "
        places[Self.count / 4].name = "\t"
        try Self.check(format.text(places), "blank names in both halves")

        // Bad syntax near the end.
        let text = format.text(Self.places(Self.count))
        let broken = String(text.dropLast(40)) + (format == .csv ? "1,2,x,notanumber,true,\n" : "{\"name\": ")
        try Self.check(broken, "bad syntax near the end")
        if format == .csv {
            try Self.check(text + "5,abc,3,Bad latitude,true,\n", "a CSV row's problem in the second half")
            var bytes = Array(text.utf8)
            bytes.insert(contentsOf: [0xC3, 0x28], at: bytes.count - 10)
            let oneThread = Self.load(bytes, splitAbove: .max)
            Self.expectSame(oneThread, Self.load(bytes, splitAbove: 0), "invalid UTF-8 in the second half")
            guard case .failure(let error) = oneThread else { throw CatalogError(source: "t", reason: "accepted invalid UTF-8") }
            #expect(error.description.contains("UTF-8"))
        }
    }

    enum FormatCase: Sendable, CaseIterable {
        case tutorial, geoJSON, csv

        func text(_ places: [Place]) -> String {
            switch self {
            case .tutorial: return ParallelCatalogScanTests.tutorial(places)
            case .geoJSON: return ParallelCatalogScanTests.geoJSON(places)
            case .csv: return ParallelCatalogScanTests.csv(places)
            }
        }
    }

    // MARK: The threshold

    /// A file of exactly `ParallelCatalogScan.minimumBytes` is split, one byte less is not
    /// (trailing blanks pad it), and both load the same catalog.
    @Test(arguments: [FormatCase.tutorial, .geoJSON, .csv])
    func justAboveAndBelowTheThreshold(_ format: FormatCase) throws {
        let minimum = ParallelCatalogScan.minimumBytes
        let sample = format.text(Self.places(1000)).utf8.count
        // Longer numbers and names further on: aim under the threshold, and pad the rest.
        var count = minimum / 10 * 9 / sample * 1000
        var text = format.text(Self.places(count))
        while text.utf8.count >= minimum {
            count -= count / 20
            text = format.text(Self.places(count))
        }
        let paddingFor = { (size: Int) in text + String(repeating: format == .csv ? "\n" : " ", count: size - text.utf8.count) }
        let below = Array(paddingFor(minimum - 1).utf8)
        let atThreshold = Array(paddingFor(minimum).utf8)
        #expect(below.count == minimum - 1 && atThreshold.count == minimum)
        for (bytes, split) in [(below, false), (atThreshold, true)] {
            bytes.withUnsafeBufferPointer { body in
                let path: ParallelCatalogScan.Path
                if format == .csv {
                    path = ParallelCatalogScan.csv(in: body, source: "t", shared: .array(bytes), offset: 0).path
                } else {
                    path =
                        ParallelCatalogScan.json(
                            format == .tutorial ? .tutorial : .geoJSON, in: body, file: nil, shared: .array(bytes), offset: 0
                        ).path
                }
                #expect(path == (split ? .split : .oneThread))
            }
            Self.expectSame(
                Self.load(bytes, splitAbove: .max), try Self.loadFile(bytes, splitAbove: ParallelCatalogScan.minimumBytes),
                "\(bytes.count) bytes")
        }
    }

    /// The loader splits only where this process may run on two CPUs or more.
    @Test func theLoaderSplitsOnlyWithTwoCores() {
        let cores = ParallelCatalogScan.availableCores
        #expect((1...max(1, sysconf(Int32(_SC_NPROCESSORS_CONF)))).contains(cores))
        #expect(ParallelCatalogScan.loaderThreshold == (cores >= 2 ? ParallelCatalogScan.minimumBytes : .max))
    }

    // MARK: End to end

    /// The built tool on a catalog of 130k places, as tutorial JSON, GeoJSON and CSV (all
    /// split: over 4 MB) and as tutorial JSON with one escaped key (which the scanners leave
    /// to the full parser, on one thread): the same `nearest` answers, ids by position included.
    @Test(arguments: [true, false])
    func theToolAnswersTheSameFromEveryForm(ids: Bool) async throws {
        let directory = try makeTemporaryDirectory("parallel-scan-tool")
        defer { try? FileManager.default.removeItem(at: directory) }
        let places = Self.places(130_000, ids: ids)
        var forms = [("tutorial.json", Self.tutorial(places)), ("features.geojson", Self.geoJSON(places)), ("rows.csv", Self.csv(places))]
        let full = Self.tutorial(places)
        let escaped = try #require(full.range(of: "\"name\"", options: .backwards))
        forms.append(("full.json", full.replacingCharacters(in: escaped, with: "\"na\\u006de\"")))
        for (name, text) in forms {
            #expect(text.utf8.count > ParallelCatalogScan.minimumBytes, "\(name)")
            try Data(text.utf8).write(to: directory.appendingPathComponent(name))
        }
        let queries =
            (0..<300).map { i in "\(Double(i * 59 % 170) - 85 + 0.37),\(Double(i * 71 % 350) - 175 + 0.61)" }
            .joined(separator: "\n") + "\n"
        for options in [["-k", "3"], ["-k", "2", "--json"]] {
            var answers: [String: String] = [:]
            for (name, _) in forms {
                let result = try await runTool(
                    ["nearest"] + options + ["--landmarks", directory.appendingPathComponent(name).path], stdin: queries)
                #expect(result.status == 0, "\(name): \(result.stderr)")
                answers[name] = result.stdout
            }
            let reference = try #require(answers["full.json"])
            #expect(reference.split(separator: "\n").count >= 300)
            for (name, answer) in answers { #expect(answer == reference, "\(name) \(options)") }
        }
    }
}
