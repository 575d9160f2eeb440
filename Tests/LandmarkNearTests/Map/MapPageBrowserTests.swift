import Foundation
import Testing

@_spi(Inlining) @testable import LandmarkNearCore

/// The map page in a real headless browser (Debian's chromium, driven over the DevTools
/// protocol by Tests/Counterparts/map_page_check.py): it loads with no console error, no
/// exception, no network request and no dialog; its SVG holds the run's tracks, circles, places
/// with their outlines, and markers; hover, wheel, drag, buttons, links and print work.
/// Screenshots are kept under `.build/map-screenshots/` (CI artefacts).
@Suite(.serialized, .suiteTimeLimit) struct MapPageBrowserTests {
    static let screenshots = repositoryRoot.appendingPathComponent(".build/map-screenshots")

    /// Loads `page` and returns the checker's report.
    static func check(_ page: URL, screenshot name: String) async throws -> JSONValue {
        let shot = screenshots.appendingPathComponent("\(name).png")
        let result = try await runCounterpart("map_page_check.py", [page.path, "--screenshot", shot.path, "--interact"])
        guard result.status == 0 else { throw CounterpartError("map_page_check.py: \(result.status) \(result.stderr)") }
        let report = try JSONParser.parse(result.stdout)
        let png = try Data(contentsOf: shot)
        #expect(png.count > 5_000 && png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        return report
    }

    /// What every page must satisfy, whatever the run.
    static func expectClean(_ report: JSONValue) {
        #expect(report["ready"]?.boolValue == true)
        for key in ["consoleErrors", "exceptions", "logErrors", "requests", "dialogs"] {
            #expect(report[key]?.arrayValue == [], "\(key): \(report[key].map(JSONWriter.serialize) ?? "missing")")
        }
        #expect(report["images"]?.integer == 0)
        let interaction = report["interaction"]
        for key in ["wheelZoomed", "dragPanned", "zoomOutButton", "fitRestores", "arrowKeyPans", "doubleClickZooms", "printHidesControls"] {
            #expect(interaction?[key]?.boolValue == true, "\(key)")
        }
        #expect((interaction?["printPDFBytes"]?.integer ?? 0) > 10_000)
    }

    @Test(arguments: MapRun.all) func thePageLoadsOfflineAndShowsTheRun(_ run: MapRun) async throws {
        let directory = try makeTemporaryDirectory("map-page")
        defer { try? FileManager.default.removeItem(at: directory) }
        let drawn = try await run.draw(in: directory)
        #expect(drawn.status == 0, "\(drawn.stderr)")
        let features = try MapCommandTests.Features(
            String(contentsOf: directory.appendingPathComponent("\(run.name).geojson"), encoding: .utf8))
        let events = features.kind("event").map { $0["properties"] }
        let report = try await Self.check(directory.appendingPathComponent("\(run.name).html"), screenshot: run.name)
        Self.expectClean(report)

        #expect(report["tracks"]?.integer == run.devices.count)
        #expect(report["trackPathLengths"]?.arrayValue?.allSatisfy { ($0.doubleValue ?? 0) > 1 } == true)
        #expect(report["circles"]?.integer == run.favourites)
        #expect(report["circleBoxes"]?.arrayValue?.allSatisfy { ($0.arrayValue?.first?.doubleValue ?? 0) > 1 } == true)
        #expect(report["landmarks"]?.integer == run.favourites)
        #expect(report["markersNotified"]?.integer == run.notified)
        #expect(report["markersExit"]?.integer == events.filter { $0?["event"]?.stringValue == "exit" }.count)
        #expect(
            report["markersSuppressed"]?.integer
                == events.filter { $0?["event"]?.stringValue == "enter" && $0?["notified"]?.boolValue == false }.count)
        #expect(report["markersOnScreen"]?.integer == events.count)
        #expect(report["notifications"]?.integer == run.notified)
        #expect(report["closeUps"]?.integer == run.notified)
        // Names come back as text, byte for byte: a hostile one is shown, not run.
        #expect(report["legendDevices"]?.arrayValue?.compactMap(\.stringValue) == run.devices)
        let interaction = report["interaction"]
        #expect(interaction?["tooltipVisible"]?.boolValue == true)
        #expect(interaction?["tooltipText"]?.stringValue?.contains("Distance: ") == true)
        #expect(interaction?["linkActivates"]?.boolValue == true)
        #expect(interaction?["linkCentres"]?.boolValue == true)
    }

    @Test func theRoadTripShowsBothDrivesTheThreeCirclesAndTheTwoNotifications() async throws {
        let directory = try makeTemporaryDirectory("map-page")
        defer { try? FileManager.default.removeItem(at: directory) }
        let sample = repositoryRoot.appendingPathComponent("Samples/road-trip.nmea").path
        let drawn = try await runTool(["map", sample, "--out", "road-trip.html"], currentDirectory: directory)
        #expect(drawn.status == 0, "\(drawn.stderr)")
        let report = try await Self.check(directory.appendingPathComponent("road-trip.html"), screenshot: "road-trip-quick-start")
        Self.expectClean(report)
        #expect(report["title"]?.stringValue == "road-trip.nmea — LandmarkNear map")
        #expect(report["tracks"]?.integer == 1)
        #expect(report["trackParts"]?.arrayValue?.compactMap(\.integer) == [2], "both drives, drawn apart")
        #expect(report["circles"]?.integer == 3)
        #expect(report["markersNotified"]?.integer == 2)
        #expect(report["landmarkNames"]?.arrayValue?.compactMap(\.stringValue) == ["Turtle Rock", "Chilkoot Trail", "St. Mary Lake"])
        #expect(report["notificationTexts"]?.arrayValue?.compactMap(\.stringValue) == ["Turtle Rock — default", "St. Mary Lake — default"])
        #expect(report["summary"]?.stringValue?.hasPrefix("500 fixes of 1 device · 2 notifications") == true)
        #expect(report["thinning"]?.stringValue == "Every used fix is drawn.")
        let tooltip = report["interaction"]?["tooltipText"]?.stringValue ?? ""
        #expect(tooltip.contains("Turtle Rock") && tooltip.contains("2026-05-01T16:04:30Z") && tooltip.contains("8.02 km"))
        #expect(report["scaleLabel"]?.stringValue?.hasSuffix("km") == true)
    }

    @Test func aPlacesCatalogDrawsEachPlaceAndItsOutline() async throws {
        let directory = try makeTemporaryDirectory("map-page")
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = MapRun.places
        let drawn = try await run.draw(in: directory)
        #expect(drawn.status == 0, "\(drawn.stderr)")
        let report = try await Self.check(directory.appendingPathComponent("places.html"), screenshot: "places")
        Self.expectClean(report)
        #expect(report["tracks"]?.integer == 1)
        // The point keeps its circle; the park and the trail are drawn with their outlines.
        #expect(report["circles"]?.integer == 1)
        #expect(report["outlines"]?.integer == 2)
        #expect(report["places"]?.arrayValue?.compactMap(\.stringValue) == ["place area", "place line"])
        for key in ["circleBoxes", "outlineBoxes", "placeBoxes"] {
            #expect(report[key]?.arrayValue?.allSatisfy { ($0.arrayValue?.first?.doubleValue ?? 0) > 1 } == true, "\(key)")
        }
        // An outline is larger than its place.
        let outlines = report["outlineBoxes"]?.arrayValue?.compactMap { $0.arrayValue?.first?.doubleValue } ?? []
        let places = report["placeBoxes"]?.arrayValue?.compactMap { $0.arrayValue?.first?.doubleValue } ?? []
        #expect(outlines.count == 2 && places.count == 2 && zip(outlines, places).allSatisfy { $0 > $1 })
        #expect(
            report["placeTitles"]?.arrayValue?.compactMap(\.stringValue) == [
                "Lake Park — within 300.0 m of the area", "Ridge Trail — within 200.0 m of the line", "Lake Park — area",
                "Ridge Trail — line",
            ])
        let legend = report["legendSymbols"]?.arrayValue?.compactMap(\.stringValue) ?? []
        #expect(["favourite place (area)", "favourite place (line)", "place radius outline"].allSatisfy(legend.contains))
        #expect(report["landmarkNames"]?.arrayValue?.compactMap(\.stringValue) == ["Lake Park", "Ridge Trail", "Turtle Rock"])
        #expect(report["markersNotified"]?.integer == run.notified)
        #expect(report["notifications"]?.integer == run.notified && report["closeUps"]?.integer == run.notified)
    }

    /// A run without a place draws none of their elements or legend entries.
    @Test func aPointCatalogDrawsNoPlace() async throws {
        let directory = try makeTemporaryDirectory("map-page")
        defer { try? FileManager.default.removeItem(at: directory) }
        let drawn = try await MapRun.roadTrip.draw(in: directory)
        #expect(drawn.status == 0, "\(drawn.stderr)")
        let report = try await Self.check(directory.appendingPathComponent("road-trip.html"), screenshot: "road-trip-no-places")
        Self.expectClean(report)
        #expect(report["outlines"]?.integer == 0 && report["places"]?.arrayValue == [])
        #expect(report["legendSymbols"]?.arrayValue?.compactMap(\.stringValue).contains { $0.contains("place") } == false)
    }

    @Test func aLargeRunOpensThinnedAndSaysSo() async throws {
        let directory = try makeTemporaryDirectory("map-page")
        defer { try? FileManager.default.removeItem(at: directory) }
        // Five cars wiggling eastwards past Turtle Rock, 20,000 fixes each (about 2 m apart).
        var text = ""
        text.reserveCapacity(100_000 * 80)
        for d in 0..<5 {
            for i in 0..<20_000 {
                let lon = -116.4 + Double(i) * 0.000025
                let lat = 34.011286 + Double(d - 2) * 0.02 + 0.004 * sin(Double(i) / 300)
                text += "{\"device\":\"car-\(d)\",\"lat\":\(lat),\"lon\":\(lon),\"time\":\(1_777_636_800 + i)}\n"
            }
        }
        try Data(text.utf8).write(to: directory.appendingPathComponent("big.ndjson"))
        let drawn = try await runTool(
            ["map", "big.ndjson", "--out", "big.html", "--geojson", "big.geojson", "--events", "all"], currentDirectory: directory)
        #expect(drawn.status == 0, "\(drawn.stderr)")
        let geojson = try String(contentsOf: directory.appendingPathComponent("big.geojson"), encoding: .utf8)
        #expect(GeoJSONCheck.problems(in: geojson) == [])
        let features = try MapCommandTests.Features(geojson)
        let tracks = features.kind("track")
        // Every fix that caused an event is still on its thinned track.
        let events = features.kind("event")
        #expect(events.filter { $0["properties"]?["notified"]?.boolValue == true }.count == 5)
        #expect(events.filter { $0["properties"]?["event"]?.stringValue == "exit" }.count == 5)
        for event in events {
            let device = event["properties"]?["device"]?.stringValue
            let point = event["geometry"]?["coordinates"]
            let line = tracks.first { $0["properties"]?["device"]?.stringValue == device }?["geometry"]?["coordinates"]?.arrayValue ?? []
            #expect(line.contains { $0 == point }, "\(device ?? "?"): the event's fix was thinned away")
        }
        let drawnFixes = tracks.compactMap { $0["properties"]?["drawnFixes"]?.integer }.reduce(0, +)
        #expect(drawnFixes <= 60_000 && drawnFixes > 1_000)
        #expect(tracks.allSatisfy { $0["properties"]?["thinningToleranceMeters"]?.doubleValue != nil })
        let report = try await Self.check(directory.appendingPathComponent("big.html"), screenshot: "large-run")
        Self.expectClean(report)
        #expect(report["tracks"]?.integer == 5)
        #expect(report["markersNotified"]?.integer == 5 && report["markersExit"]?.integer == 5)
        #expect(
            report["thinning"]?.stringValue?.hasPrefix("Tracks thinned for drawing: \(drawnFixes.formatted()) of 100,000 fixes drawn")
                == true,
            "\(report["thinning"]?.stringValue ?? "")")
    }

    /// The checker itself must see what it looks for: a page that logs an error and loads an image.
    @Test func theCheckerSeesConsoleErrorsAndNetworkRequests() async throws {
        let directory = try makeTemporaryDirectory("map-page")
        defer { try? FileManager.default.removeItem(at: directory) }
        let sample = repositoryRoot.appendingPathComponent("Samples/road-trip.nmea").path
        _ = try await runTool(["map", sample, "--out", "page.html"], currentDirectory: directory)
        let page = directory.appendingPathComponent("page.html")
        let html = try String(contentsOf: page, encoding: .utf8)
            .replacingOccurrences(
                of: "<body>", with: "<body><img src=\"http://127.0.0.1:9/tile.png\"><script>console.error('boom')</script>")
        try Data(html.utf8).write(to: page)
        let report = try await Self.check(page, screenshot: "checker-self-test")
        #expect(report["consoleErrors"]?.arrayValue?.compactMap(\.stringValue) == ["boom"])
        #expect(report["requests"]?.arrayValue?.compactMap(\.stringValue) == ["http://127.0.0.1:9/tile.png"])
        #expect(report["logErrors"]?.arrayValue?.isEmpty == false)  // the page's CSP blocked it
    }
}
