import Foundation
import Testing

@_spi(Inlining) @testable import LandmarkNearCore

/// NMEA positions in event lines carry the sentence's precision (degrees at max(k + 2, 7)
/// decimals for k decimals of minutes), while `fixes` keeps every digit of the double so that
/// its lines read back bit for bit; read back, they give the same event line byte for byte
/// (what Scripts/spark-watch.py relies on).
@Suite(.suiteTimeLimit) struct NMEACoordinatesTests {
    @Test(arguments: [
        ("3402.97560", "11605.59130", #""fix":{"lat":34.0495933,"lon":-116.0931883}"#),
        ("3402.9756", "11605.5913", #""fix":{"lat":34.0495933,"lon":-116.0931883}"#),
        ("3402.97561", "11605.59125", #""fix":{"lat":34.0495935,"lon":-116.0931875}"#),
        // Three decimals of minutes: still seven of a degree, trailing zeros not printed.
        ("3402.976", "11605.591", #""fix":{"lat":34.0496,"lon":-116.0931833}"#),
    ])
    func eventLinesCarryTheSentencesPrecision(_ latitude: String, _ longitude: String, _ fix: String) async throws {
        let sentence = "$GPRMC,160430.00,A,\(latitude),N,\(longitude),W,41.2,219.3,010526,,,A\n"
        let watched = try await runTool(["watch"], stdin: sentence)
        #expect(watched.status == 0, "\(watched.stderr)")
        #expect(watched.stdout.contains(fix), "\(watched.stdout)")
        #expect(watched.stdout.hasPrefix(#"{"event":"enter","device":"default","time":"2026-05-01T16:04:30Z","#))

        // fixes: the double in full (its shortest round-trip form), the value the engine used.
        let fixes = try await runTool(["fixes"], stdin: sentence)
        #expect(fixes.status == 0)
        let line = try JSONParser.parse(Array(fixes.stdout.utf8.dropLast()))
        let exactLatitude = try #require(line["lat"]?.doubleValue)
        #expect(abs(exactLatitude - (34 + Double(latitude.dropFirst(2))! / 60)) < 1e-12)

        let again = try await runTool(["watch", "--format", "ndjson"], stdin: fixes.stdout)
        #expect(again.stdout == watched.stdout)
    }

    /// The README's example, as it shows it.
    @Test func theReadmeExample() async throws {
        let sentence = "$GPRMC,160430.00,A,3402.97560,N,11605.59130,W,41.2,219.3,010526,,,A\n"
        let fixes = try await runTool(["fixes"], stdin: sentence)
        #expect(
            fixes.stdout == #"{"device":"default","lat":34.049593333333334,"lon":-116.09318833333333,"time":"2026-05-01T16:04:30Z"}"# + "\n"
        )
        let watched = try await runTool(["watch"], stdin: sentence)
        #expect(watched.stdout.contains(#","fix":{"lat":34.0495933,"lon":-116.0931883},"#))
    }
}
