import Foundation
import LandmarkNear
import Testing

/// The code of the DocC article `GettingStarted.md`, compiled and run against the public API
/// only (a plain `import`, not `@testable`). Each of the article's code blocks stands here as
/// written, between the expectations; `articleBlocksStandHere` checks that they do.
@Suite(.suiteTimeLimit) struct GettingStartedTests {
    static let article = repositoryRoot.appendingPathComponent("Sources/LandmarkNear/LandmarkNear.docc/GettingStarted.md")
    static let thisFile = URL(fileURLWithPath: #filePath)

    @Test func theArticleRuns() throws {
        let tracePath = try Self.writeTrace()
        defer { try? FileManager.default.removeItem(atPath: tracePath) }

        let catalog = LandmarkCatalog.embedded
        let turtleRock = catalog[0]
        print(turtleRock.name, turtleRock.coordinate)  // Turtle Rock 34.011286,-116.166868
        #expect(turtleRock.name == "Turtle Rock")

        var configuration = EngineConfiguration()
        configuration.radius = try Length(parsing: "5mi").meters
        let engine = try ProximityEngine(catalog: catalog, configuration: configuration)

        var events: [ProximityEvent] = []
        let fix = Fix(
            device: "car", coordinate: Coordinate(latitude: 34.05, longitude: -116.15),
            time: Timestamp(rfc3339: "2026-05-01T12:00:02Z"))
        engine.process(fix, into: &events)
        for event in events where event.isNotification {
            print(event.kind, catalog[event.landmarkIndex].name, event.distance)  // enter Turtle Rock 4568.09...
        }
        #expect(events.map(\.kind) == [.enter])
        #expect(events.first?.landmarkIndex == 0)
        #expect(events.first.map { (4568...4569).contains($0.distance) } == true)

        events.removeAll()
        let reader = try FixReader(input: .file(tracePath), format: nil)
        while let record = try reader.next() {
            switch record {
            case .fix(let fix, _): engine.process(fix, into: &events)
            case .invalid(let issue): print(issue)  // "trace.ndjson:3: latitude 91.0 is outside [-90, 90]"
            }
        }
        #expect(events.map(\.kind) == [.exit, .enter])

        let payload = APNsPayload.json(for: turtleRock, index: 0, options: PayloadOptions())
        // {"aps":{"alert":{"title":"Turtle Rock","body":"You are within 5 miles of Turtle Rock."},
        //  "category":"LandmarkNear","thread-id":"5280"},"landmarkIndex":0}
        #expect(
            payload
                == #"{"aps":{"alert":{"title":"Turtle Rock","body":"You are within 5 miles of Turtle Rock."},"category":"LandmarkNear","thread-id":"5280"},"landmarkIndex":0}"#
        )

        let (model, warnings) = try PayloadParser.parse(
            Array(payload.utf8), source: "turtlerock.apns",
            catalog: catalog, strings: nil)
        print(model.title, model.landmark?.park ?? "-", warnings)  // Turtle Rock Joshua Tree National Park []
        #expect(model.title == "Turtle Rock" && model.landmark?.park == "Joshua Tree National Park" && warnings.isEmpty)

        do {
            _ = try CatalogLoader.load(path: "/no/such/landmarks.json")
        } catch {
            print(error.kind, error)  // missingInput /no/such/landmarks.json: no such file
        }
        #expect(throws: CatalogError(source: "/no/such/landmarks.json", reason: "no such file", kind: .missingInput)) {
            try CatalogLoader.load(path: "/no/such/landmarks.json")
        }
    }

    /// The car drives away from Turtle Rock (an exit), a record it cannot read, then back.
    static func writeTrace() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("trace-\(UUID().uuidString).ndjson").path
        let lines = [
            #"{"device":"car","lat":34.5,"lon":-116.15,"time":"2026-05-01T12:10:00Z"}"#,
            #"{"device":"car","lat":34.5,"lon":-116.15,"time":"2026-05-01T12:20:00Z"}"#,
            #"{"device":"car","lat":91.0,"lon":-116.15,"time":"2026-05-01T12:30:00Z"}"#,
            #"{"device":"car","lat":34.02,"lon":-116.16,"time":"2026-05-01T14:00:00Z"}"#,
        ]
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Every ```swift block of the article, line by line, stands in `theArticleRuns` (indentation
    /// and blank lines aside), in the same order.
    @Test func articleBlocksStandHere() throws {
        let article = try String(contentsOf: Self.article, encoding: .utf8)
        let source = try String(contentsOf: Self.thisFile, encoding: .utf8)
            .split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        let blocks = article.components(separatedBy: "```swift\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
        try #require(blocks.count == 6)
        var position = 0
        for block in blocks {
            let lines = block.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            let start = try #require((position..<source.count).first { source[$0] == lines[0] }, "\(lines[0])")
            for (offset, line) in lines.enumerated() {
                #expect(source[start + offset] == line, "article line: \(line)")
            }
            position = start + lines.count
        }
    }
}
