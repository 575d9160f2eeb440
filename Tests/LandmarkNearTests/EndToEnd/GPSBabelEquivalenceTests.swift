import Foundation
import Testing

/// One real track (gpxpy's `around-visnjan-with-car.gpx`) converted by GPSBabel into every
/// input format: each gives the same notifications (landmark and fix time, to the second:
/// the precision every format carries; GPSBabel's GeoJSON writer carries no times, so there
/// only the landmarks are compared), detected, forced and gzipped.
@Suite(.suiteTimeLimit) struct GPSBabelEquivalenceTests {
    /// GPSBabel output format options for each of ours. NMEA needs fix data, which the GPX
    /// lacks: `<fix>3d</fix>` is added to each point first (GPSBabel writes status V without).
    static let conversions: [(format: String, babel: String, tracks: Bool, timed: Bool)] = [
        ("csv", "unicsv,utc=0", true, true), ("nmea", "nmea", false, true),
        ("kml", "kml,points=0,lines=0,track=1", false, true), ("tcx", "gtrnctr", false, true),
        ("geojson", "geojson", false, false),
    ]

    /// Landmarks on the track: every 25th point, as favourites with a 150 m radius.
    static func catalog(from track: String, in directory: URL) throws -> String {
        let pattern = try NSRegularExpression(pattern: #"<trkpt lat="([-0-9.]+)" lon="([-0-9.]+)""#)
        let matches = pattern.matches(in: track, range: NSRange(track.startIndex..., in: track))
        var rows = ["id,name,lat,lon,isFavorite"]
        for (number, match) in matches.enumerated() where number % 25 == 10 {
            let lat = String(track[Range(match.range(at: 1), in: track)!])
            let lon = String(track[Range(match.range(at: 2), in: track)!])
            rows.append("\(number),Point \(number),\(lat),\(lon),true")
        }
        let path = directory.appendingPathComponent("landmarks.csv").path
        try (rows.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// (landmark id, fix time to the second) of each notification line.
    static func notifications(_ stdout: String, timed: Bool = true) -> [String] {
        stdout.split(separator: "\n").map { line in
            let id = line.range(of: #""id":[0-9]+"#, options: .regularExpression).map { String(line[$0]) } ?? "?"
            let time = line.range(of: #""time":"[0-9T:-]+"#, options: .regularExpression).map { String(line[$0]) } ?? "?"
            return timed ? id + " " + time : id
        }
    }

    @Test func everyFormatGivesTheSameNotifications() async throws {
        let original = FixReading.fixture("gpx/around-visnjan-with-car.gpx")
        let directory = try makeTemporaryDirectory("gpsbabel")
        let track = try String(contentsOfFile: original, encoding: .utf8)
        let withFix = directory.appendingPathComponent("track.gpx")
        try track.replacingOccurrences(of: "</ele>", with: "</ele><fix>3d</fix>").write(to: withFix, atomically: true, encoding: .utf8)
        let landmarks = try Self.catalog(from: track, in: directory)
        let options = ["--landmarks", landmarks, "--radius", "150m", "--hysteresis", "50m", "--cooldown", "0"]

        let reference = try await runTool(["watch", original] + options)
        #expect(reference.status == 0, "\(reference.stderr)")
        #expect(Self.notifications(reference.stdout).count >= 3)

        for conversion in Self.conversions {
            let expected = Self.notifications(reference.stdout, timed: conversion.timed)
            let converted = try GPSBabel.convert(withFix.path, from: "gpx", to: conversion.babel, tracks: conversion.tracks)
            let path = directory.appendingPathComponent("track.\(conversion.format)")
            try converted.write(to: path, atomically: true, encoding: .utf8)
            for forced in [nil, conversion.format] {
                let result = try await runTool(["watch", path.path] + options + (forced.map { ["--format", $0] } ?? []))
                #expect(result.status == 0, "\(conversion.format): \(result.stderr)")
                #expect(
                    Self.notifications(result.stdout, timed: conversion.timed) == expected,
                    "\(conversion.format) (forced: \(forced ?? "no"))")
            }
            // And gzipped.
            let gzipped = directory.appendingPathComponent("track.\(conversion.format).gz")
            try GzipWriter.compress(Data(converted.utf8)).write(to: gzipped)
            let result = try await runTool(["watch", gzipped.path] + options)
            #expect(Self.notifications(result.stdout, timed: conversion.timed) == expected, "\(conversion.format).gz")
        }
    }
}
