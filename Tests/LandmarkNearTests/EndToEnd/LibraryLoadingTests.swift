import Foundation
import Testing

/// PROJ, libcurl and libmicrohttpd are opened when first needed (`SharedLibrary`), not at
/// start-up: a run that needs none of them must not load them, and one that needs one must
/// load it and work. Checked with the dynamic loader's own account of what it initialised
/// (`LD_DEBUG=files` on stderr).
@Suite(.suiteTimeLimit)
struct LibraryLoadingTests {
    static let lazilyOpened = ["libproj", "libcurl", "libmicrohttpd"]

    /// The base names of the libraries the loader initialised ("calling init: /lib/…/libz.so.1").
    static func initialised(_ stderr: String) -> [String] {
        stderr.split(separator: "\n").compactMap { line in
            guard let range = line.range(of: "calling init: ") else { return nil }
            return line[range.upperBound...].split(separator: "/").last.map(String.init)
        }
    }

    static func runWithLoaderReport(_ arguments: [String], stdin: String) async throws -> (ToolResult, [String]) {
        let result = try await runProcess(
            try toolExecutableURL().path, arguments, stdin: Data(stdin.utf8), environment: ["LD_DEBUG": "files"])
        return (result, initialised(result.stderr))
    }

    @Test func aCatalogLoadsAndTheIndexBuildsWithoutTheLazyLibraries() async throws {
        let (result, libraries) = try await Self.runWithLoaderReport(["nearest"], stdin: "")
        #expect(result.status == 0, "\(result.stderr.suffix(500))")
        // The loader's report is there (GEOS is linked), so an absence below means something.
        #expect(libraries.contains { $0.hasPrefix("libgeos_c") }, "\(libraries)")
        for name in Self.lazilyOpened {
            #expect(!libraries.contains { $0.hasPrefix(name + ".") || $0.hasPrefix(name + "-") }, "\(name) in \(libraries)")
        }
    }

    @Test func aLongDistanceOpensPROJAndIsExact() async throws {
        // (0, 0) is thousands of kilometres from every embedded landmark: beyond ShortGeodesic,
        // so the answer's distance is geod_inverse's.
        let (result, libraries) = try await Self.runWithLoaderReport(["nearest", "--json"], stdin: "0,0\n")
        #expect(result.status == 0, "\(result.stderr.suffix(500))")
        #expect(libraries.contains { $0.hasPrefix("libproj.") }, "\(libraries)")
        #expect(!libraries.contains { $0.hasPrefix("libcurl.") || $0.hasPrefix("libmicrohttpd.") }, "\(libraries)")
        let answer = try #require(result.stdout.split(separator: "\n").first)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(answer.utf8)) as? [String: Any])
        let neighbours = try #require(object["nearest"] as? [[String: Any]])
        let metres = try #require(neighbours.first?["distanceMeters"] as? Double)
        #expect(metres > 400_000, "\(answer)")
    }

    /// A long run must not find PROJ missing hours in: the engine opens it as it starts.
    @Test func watchOpensPROJAsItsEngineStarts() async throws {
        let (result, libraries) = try await Self.runWithLoaderReport(["watch"], stdin: "")
        #expect(result.status == 0, "\(result.stderr.suffix(500))")
        #expect(libraries.contains { $0.hasPrefix("libproj.") }, "\(libraries)")
        #expect(!libraries.contains { $0.hasPrefix("libcurl.") || $0.hasPrefix("libmicrohttpd.") }, "\(libraries)")
    }

    @Test func versionOpensPROJForItsRelease() async throws {
        let (result, libraries) = try await Self.runWithLoaderReport(["--version"], stdin: "")
        #expect(result.status == 0)
        #expect(libraries.contains { $0.hasPrefix("libproj.") }, "\(libraries)")
        #expect(result.stdout.range(of: #"PROJ \d+\.\d+"#, options: .regularExpression) != nil, "\(result.stdout)")
    }
}
