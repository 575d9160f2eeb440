import Foundation
import Testing
@testable import LandmarkNear

/// NMEA positions print with the sentence's precision (degrees at max(k + 2, 6) decimals for k
/// decimals of minutes) in event lines and `fixes` lines alike, and a `fixes` line read back
/// gives the same event line byte for byte (what Scripts/spark-watch.py relies on).
@Suite(.suiteTimeLimit) struct NMEACoordinatesTests {
    @Test(arguments: [
        ("3402.97560", "11605.59130", #""fix":{"lat":34.0495933,"lon":-116.0931883}"#),
        ("3402.9756", "11605.5913", #""fix":{"lat":34.049593,"lon":-116.093188}"#),
        // Three decimals of minutes: still six of a degree, trailing zeros not printed.
        ("3402.976", "11605.591", #""fix":{"lat":34.0496,"lon":-116.093183}"#),
    ])
    func eventLinesAndFixesLinesCarryTheSentencesDigits(_ latitude: String, _ longitude: String, _ fix: String) async throws {
        let sentence = "$GPRMC,160430.00,A,\(latitude),N,\(longitude),W,41.2,219.3,010526,,,A\n"
        let watched = try await runTool(["watch"], stdin: sentence)
        #expect(watched.status == 0, "\(watched.stderr)")
        #expect(watched.stdout.contains(fix), "\(watched.stdout)")
        #expect(watched.stdout.hasPrefix(#"{"event":"enter","device":"default","time":"2026-05-01T16:04:30Z","#))

        let fixes = try await runTool(["fixes"], stdin: sentence)
        #expect(fixes.status == 0)
        let coordinates = fix.dropFirst(#""fix":{"#.count).dropLast()
        #expect(fixes.stdout == #"{"device":"default","# + coordinates + #","time":"2026-05-01T16:04:30Z"}"# + "\n")

        let again = try await runTool(["watch", "--format", "ndjson"], stdin: fixes.stdout)
        #expect(again.stdout == watched.stdout)
    }
}
