import Foundation
import Testing

@_spi(Inlining) @testable import LandmarkNearCore
@testable import LandmarkNearReaders
@testable import LandmarkNearServer

@Suite(.suiteTimeLimit) struct GPXReaderTests {
    @Test func gpx11TrackFromAnETrex() throws {
        let result = try FixReading.read(path: FixReading.fixture("gpx/around-visnjan-with-car.gpx"))
        #expect(result.format == .gpx)
        #expect(result.issues.isEmpty)
        #expect(result.fixes.count == 104)
        let first = try #require(result.fixes.first)
        #expect(
            first
                == Fix(
                    coordinate: Coordinate(latitude: 45.2735188510, longitude: 13.7142099626),
                    time: FixReading.time("2020-12-18T06:15:50Z")))
        #expect(result.fixes.allSatisfy { $0.time != nil && $0.device == "default" })
    }

    @Test func gpx10RouteWithoutTimes() throws {
        let result = try FixReading.read(path: FixReading.fixture("gpx/route.gpx"))
        #expect(result.issues.isEmpty)
        #expect(result.fixes.count == 55)
        #expect(result.fixes.allSatisfy { $0.time == nil })
        #expect(result.lines.prefix(2) == [4, 6])
        #expect(result.fixes.first?.coordinate == Coordinate(latitude: 45.2787641494, longitude: 13.726695478))
    }

    @Test func gpx10WaypointsRoutePointsTrackPoints() throws {
        let result = try FixReading.read(path: FixReading.fixture("gpx/gpx1.0_with_all_fields.gpx"))
        #expect(result.issues.isEmpty)
        #expect(result.lines == [11, 32, 42, 63, 65, 71, 73, 85])
        let fixes = result.fixes
        #expect(fixes[0] == Fix(coordinate: Coordinate(latitude: 12.3, longitude: 45.6), time: FixReading.time("2013-01-02T02:03:00Z")))
        #expect(fixes[1].time == nil)
        #expect(fixes[2].time == FixReading.time("2013-01-02T02:03:03Z"))
        // A time without a zone is UTC.
        #expect(fixes[7] == Fix(coordinate: Coordinate(latitude: 10.1, longitude: -20.2), time: FixReading.time("2013-01-01T12:00:04Z")))
    }

    @Test func byteOrderMarkNoNamespaceFractionalTime() throws {
        let result = try FixReading.read(path: FixReading.fixture("gpx/unicode_with_bom.gpx"))
        #expect(result.issues.isEmpty)
        #expect(
            result.fixes == [
                Fix(
                    coordinate: Coordinate(latitude: 43.309634, longitude: 3.515386),
                    time: FixReading.time("2016-05-27T10:08:47.8Z"))
            ])
    }

    @Test func prefixedNamespaceTimeZonesAndLeadingBlankLines() throws {
        let text = """

            <?xml version="1.0"?>
            <g:gpx xmlns:g="http://www.topografix.com/GPX/1/1" version="1.1">
            <g:trk><g:trkseg>
            <g:trkpt lat="34.0" lon="-116.0"><g:time>2026-05-01T14:00:00+02:00</g:time></g:trkpt>
            <g:trkpt lon="-116.1" lat="34.1"><g:extensions><g:time>not this one</g:time></g:extensions></g:trkpt>
            </g:trkseg></g:trk></g:gpx>
            """
        let result = try FixReading.read(text)
        #expect(result.format == .gpx)
        #expect(result.issues.isEmpty)
        #expect(result.lines == [5, 6])
        #expect(
            result.fixes == [
                Fix(coordinate: Coordinate(latitude: 34, longitude: -116), time: FixReading.time("2026-05-01T12:00:00Z")),
                Fix(coordinate: Coordinate(latitude: 34.1, longitude: -116.1)),
            ])
    }

    @Test func badPointsAreIssuesAndTheOthersSurvive() throws {
        let text = """
            <gpx version="1.1">
            <wpt lat="1" lon="2"/>
            <wpt lon="2"/>
            <wpt lat="north" lon="2"/>
            <wpt lat="1" lon="200"/>
            <wpt lat="1" lon="2"><time>noon</time></wpt>
            <wpt lat="3" lon="4"/>
            </gpx>
            """
        let result = try FixReading.read(text)
        #expect(
            result.issues == [
                "<source>:3: <wpt> has no lat attribute",
                "<source>:4: <wpt> lat \"north\" is not a number",
                "<source>:5: <wpt>: longitude 200.0 is outside [-180, 180]",
                "<source>:6: <wpt>: time \"noon\" is not an RFC 3339 date-time",
            ])
        #expect(result.lines == [2, 7])
    }

    @Test func truncatedDocumentKeepsThePointsBeforeTheEnd() throws {
        let text = """
            <?xml version="1.0"?>
            <gpx version="1.1"><trk><trkseg>
            <trkpt lat="1" lon="2"><time>2026-05-01T12:00:00Z</time></trkpt>
            <trkpt lat="3" lon="4"><time>2026-05-01T12:00:01Z</time></trkpt>
            <trkpt lat="5" lon
            """
        let result = try FixReading.read(text)
        #expect(result.lines == [3, 4])
        #expect(result.issues.count == 1)
        #expect(result.issues.first == "<source>:5: GPX: Specification mandates value for attribute lon")
        // Cut between elements, as when a logger dies: the error is at the end.
        let cut = try FixReading.read(text.components(separatedBy: "\n").prefix(4).joined(separator: "\n") + "\n")
        #expect(cut.lines == [3, 4])
        #expect(cut.issues == ["<source>:4: GPX: the document ends before its elements are closed (a truncated file?)"])
    }

    /// libxml2's recovery goes on after a mismatched tag or a byte that is not UTF-8, so the
    /// points after it are kept; each error is one issue.
    @Test func malformedXMLIsReportedAndThePointsAfterItSurvive() throws {
        var bytes = Array("<gpx>\n<wpt lat=\"1\" lon=\"2\"/>\n<wpt lat=\"3\" lon=\"4\"></trkpt>\n<wpt lat=\"5\" lon=\"6\"><name>caf".utf8)
        bytes += [0xE9] + Array("</name></wpt>\n<wpt lat=\"7\" lon=\"8\"/>\n</gpx>\n".utf8)
        let result = try FixReading.read(bytes: bytes)
        #expect(result.lines == [2, 3, 4, 5])
        #expect(
            result.issues == [
                "<source>:3: GPX: Opening and ending tag mismatch: wpt line 3 and trkpt",
                "<source>:4: GPX: Input is not proper UTF-8, indicate encoding !; Bytes: 0xE9 0x3C 0x2F 0x6E",
            ])
    }

    @Test func errorFloodStopsAfterAHundredIssues() throws {
        let text = "<gpx>\n" + String(repeating: "<wpt lat=\"1\" lon=\"2\"></x>\n", count: 150) + "</gpx>\n"
        let result = try FixReading.read(text)
        #expect(result.issues.count == 101)
        #expect(result.issues.last?.hasSuffix("GPX: more than 100 XML errors; the rest is not read") == true)
        #expect(result.fixes.count < 150)
    }

    @Test func entitiesAreNeitherExpandedNorLoaded() throws {
        let text = """
            <?xml version="1.0"?>
            <!DOCTYPE gpx [
             <!ENTITY a "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa">
             <!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">
             <!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">
             <!ENTITY passwd SYSTEM "file:///etc/passwd">
            ]>
            <gpx><wpt lat="1" lon="2"><time>&c;</time></wpt>
            <wpt lat="3" lon="4"><time>&passwd;</time></wpt></gpx>
            """
        let result = try FixReading.read(text)
        #expect(
            result.fixes == [
                Fix(coordinate: Coordinate(latitude: 1, longitude: 2)),
                Fix(coordinate: Coordinate(latitude: 3, longitude: 4)),
            ])
        #expect(result.issues == ["<source>:8: GPX: Entity 'c' not defined", "<source>:9: GPX: Entity 'passwd' not defined"])
    }

    /// Foundation's XMLParser(data:) fails over 10 MB; the push parser reads any size in
    /// bounded memory.
    @Test func largeTrackIsStreamedInBoundedMemory() throws {
        let directory = try FixReading.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("large.gpx").path
        let pointCount = 250_000
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try #require(FileHandle(forWritingAtPath: path))
        handle.write(Data("<?xml version=\"1.0\"?>\n<gpx version=\"1.1\" xmlns=\"http://www.topografix.com/GPX/1/1\"><trk><trkseg>\n".utf8))
        var batch = ""
        for index in 0..<pointCount {
            let second = index % 60
            let minute = index / 60 % 60
            let hour = index / 3600 % 24
            batch +=
                "<trkpt lat=\"\(Double(index % 1000) / 100)\" lon=\"\(Double(index % 777) / 50)\"><ele>12.5</ele>"
                + "<time>2026-05-01T\(hour < 10 ? "0" : "")\(hour):\(minute < 10 ? "0" : "")\(minute):\(second < 10 ? "0" : "")\(second)Z</time></trkpt>\n"
            if index % 10_000 == 9_999 {
                handle.write(Data(batch.utf8))
                batch = ""
            }
        }
        handle.write(Data((batch + "</trkseg></trk></gpx>\n").utf8))
        try handle.close()
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        #expect(size > 20_000_000)

        let before = peakResidentBytes()
        let reader = try FixReader(input: .file(path), format: nil)
        var fixes = 0
        var lastLine = 0
        while let record = try reader.next() {
            guard case .fix(_, let line) = record else {
                Issue.record("unexpected \(record)")
                break
            }
            fixes += 1
            lastLine = line
        }
        #expect(fixes == pointCount)
        #expect(lastLine == pointCount + 2)
        // Reading a 20+ MB document must not hold it: the peak grows by far less than its size.
        // (Under AddressSanitizer the peak counts all that was ever allocated, as freed memory
        // waits in its quarantine; the plain run checks the bound.)
        if !AddressSanitizer.isActive {
            #expect(peakResidentBytes() - before < 16_000_000)
        }
    }

    private func peakResidentBytes() -> Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return usage.ru_maxrss * 1024
    }
}
