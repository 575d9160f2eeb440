import Foundation
import Testing

@_spi(Inlining) @testable import LandmarkNearCore

/// The map page's basemap (Natural Earth's 1:110m countries, embedded) and landmark names, in
/// headless chromium (`MapPageBrowserTests.check`): the land is drawn under the run, clipped to
/// the view, with the landmarks of the road trip on it and a reef at sea off it; the page stays
/// small; names never overlap nor leave the view, and those with no room are hidden.
@Suite(.serialized, .suiteTimeLimit) struct MapBasemapTests {
    /// The whole page of the README's quick start: the template, the basemap (38.5 KB) and the run.
    static let pageBound = 130_000

    @Test func theRoadTripIsDrawnOverCoastsAndBordersAndThePageStaysSmall() async throws {
        let directory = try makeTemporaryDirectory("map-basemap")
        defer { try? FileManager.default.removeItem(at: directory) }
        let drawn = try await MapRun.roadTrip.draw(in: directory)
        #expect(drawn.status == 0, "\(drawn.stderr)")
        let page = directory.appendingPathComponent("road-trip.html")
        let bytes = try Data(contentsOf: page).count
        #expect(bytes < Self.pageBound, "the page is \(bytes) bytes")
        let html = try String(contentsOf: page, encoding: .utf8)
        #expect(html.contains(#"<script type="application/json" id="basemap-data">"#) && html.contains("Natural Earth 1:110m"))

        let report = try await MapPageBrowserTests.check(page, screenshot: "basemap-road-trip")
        MapPageBrowserTests.expectClean(report)
        let basemap = try #require(report["basemap"])
        #expect((basemap["landSubpaths"]?.integer ?? 0) >= 1)
        // Coasts (the Pacific, the Gulf of California) and borders (Canada, Mexico) are in view.
        #expect((basemap["borderSubpaths"]?.integer ?? 0) >= 2)
        #expect((30_000...60_000).contains(basemap["dataBytes"]?.integer ?? 0))
        // Drawn clipped to the view (4 px of margin), however far the world reaches.
        let size = report["mapSize"]?.arrayValue?.compactMap(\.doubleValue) ?? []
        let box = basemap["landBox"]?.arrayValue?.compactMap(\.doubleValue) ?? []
        #expect(size.count == 2 && box.count == 4)
        if size.count == 2 && box.count == 4 {
            #expect(box[0] >= -4.5 && box[1] >= -4.5 && box[2] <= size[0] + 4.5 && box[3] <= size[1] + 4.5, "\(box) in \(size)")
        }
        // Zooming draws the outlines again for the new view.
        #expect(report["interaction"]?["basemapRedrawn"]?.boolValue == true)
        // Turtle Rock, Chilkoot Trail and St. Mary Lake are on land.
        #expect(report["landmarksOnLand"]?.arrayValue?.compactMap(\.boolValue) == [true, true, true])
    }

    /// `basemap.json` is what Scripts/make-basemap.py makes of Natural Earth's shapefile (in the
    /// geopandas wheel of .venv): nobody edited it by hand, and its figures are the documented ones.
    @Test func theCommittedBasemapIsWhatTheDataGives() async throws {
        let result = try await runProcess(
            try Counterparts.python().path, [repositoryRoot.appendingPathComponent("Scripts/make-basemap.py").path, "--check"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains(#"{"rings": 287, "holesLeftOut": 1, "vertices": 10631, "bytes": 38548}"#), "\(result.stderr)")
    }

    @Test func aReefOnTheAntimeridianIsAtSea() async throws {
        let directory = try makeTemporaryDirectory("map-basemap")
        defer { try? FileManager.default.removeItem(at: directory) }
        let drawn = try await MapRun.antimeridian.draw(in: directory)
        #expect(drawn.status == 0, "\(drawn.stderr)")
        let report = try await MapPageBrowserTests.check(directory.appendingPathComponent("antimeridian.html"), screenshot: "basemap-sea")
        MapPageBrowserTests.expectClean(report)
        #expect(report["landmarksOnLand"]?.arrayValue?.compactMap(\.boolValue) == [false])
    }

    /// Glacier's landmarks a few km apart (the trial's "Hidden ● ke ● McDonald"), then 40 more
    /// crowded around Logan Pass: names are placed without overlap and inside the view; the
    /// ones with no room are hidden, not overprinted.
    @Test(arguments: [0, 40]) func crowdedNamesNeverOverlapNorLeaveTheView(_ extra: Int) async throws {
        let directory = try makeTemporaryDirectory("map-labels")
        defer { try? FileManager.default.removeItem(at: directory) }
        var landmarks: [(String, Double, Double)] = [
            ("Lake McDonald", 48.53, -113.99), ("Hidden Lake", 48.68, -113.74), ("Logan Pass", 48.696, -113.718),
            ("McDonald Falls", 48.56, -113.93), ("Avalanche Lake", 48.655, -113.785), ("Going-to-the-Sun Mountain", 48.70, -113.665),
            ("St. Mary Lake", 48.69, -113.61), ("Sun Point", 48.675, -113.62),
        ]
        for i in 0..<extra { landmarks.append(("Campsite \(i + 1)", 48.69 + Double(i % 8) * 0.002, -113.73 + Double(i / 8) * 0.003)) }
        let catalog =
            "["
            + landmarks.enumerated().map { i, l in
                #"{"id":\#(i + 1),"name":"\#(l.0)","coordinates":{"latitude":\#(l.1),"longitude":\#(l.2)},"isFavorite":true}"#
            }.joined(separator: ",") + "]"
        let fixes: [MapRun.Point] = (0..<200).map { i in
            let t = Double(i) / 199
            return (device: "car", lat: 48.50 + t * 0.2, lon: -114.0 + t * 0.42, seconds: i * 30)
        }
        let run = MapRun(
            name: "glacier", options: ["--landmarks", "glacier.json", "--radius", "2km", "--events", "all"],
            files: ["glacier.json": catalog, "drive.ndjson": MapRun.ndjson(fixes)], inputs: ["drive.ndjson"],
            devices: ["car"], favourites: landmarks.count, notified: 0)
        let drawn = try await run.draw(in: directory)
        #expect(drawn.status == 0, "\(drawn.stderr)")
        let report = try await MapPageBrowserTests.check(directory.appendingPathComponent("glacier.html"), screenshot: "labels-\(extra)")
        MapPageBrowserTests.expectClean(report)

        let size = report["mapSize"]?.arrayValue?.compactMap(\.doubleValue) ?? [0, 0]
        let labels = report["labels"]?.arrayValue ?? []
        #expect(labels.count == landmarks.count)
        let shown = labels.filter { $0["hidden"]?.boolValue == false }.compactMap { $0["box"]?.arrayValue?.compactMap(\.doubleValue) }
        for box in shown {
            #expect(box[0] >= -0.5 && box[1] >= -0.5 && box[2] <= size[0] + 0.5 && box[3] <= size[1] + 0.5, "\(box) leaves \(size)")
        }
        for i in shown.indices {
            for j in shown.indices where j > i {
                let a = shown[i]
                let b = shown[j]
                #expect(!(a[0] < b[2] - 0.5 && b[0] < a[2] - 0.5 && a[1] < b[3] - 0.5 && b[1] < a[3] - 0.5), "\(a) overlaps \(b)")
            }
        }
        if extra == 0 {
            #expect(shown.count == landmarks.count, "eight names have room at this scale")
        } else {
            #expect(shown.count >= 8 && shown.count < landmarks.count, "\(shown.count) of \(landmarks.count) shown")
            // A hidden name shows while its symbol is hovered.
            #expect(report["interaction"]?["hiddenNameBeforeHover"]?.stringValue == "hidden")
            #expect(report["interaction"]?["hiddenNameOnHover"]?.stringValue == "visible")
        }
    }
}
