import Foundation
import Testing

@_spi(Inlining) @testable import LandmarkNearCore

/// The Debian package that `Scripts/make-deb.sh` makes of a release build: its name, files,
/// conffile and `Depends` (which must name exactly the packages of
/// `Scripts/debian-runtime-packages.txt`: the runtime list is what the binary really loads), and,
/// when `LANDMARK_NEAR_DEB_INSTALL=1`, `apt-get install` of it on this machine, the README's quick
/// start against `/usr/bin/landmark-near`, `apt-get remove` (the conffile stays) and `dpkg --purge`.
///
/// The package is made of the binary `LANDMARK_NEAR_TOOL` names (CI's release pass, .ci/run):
/// without it the suite is skipped, since a debug build cannot be packaged (its Swift runtime is
/// the toolchain's) and a release build takes ten minutes, too long to make inside a test.
@Suite(
    .serialized, .suiteTimeLimit,
    .enabled(
        if: DebianPackageEnvironment.releaseBinary != nil,
        "no release build named: LANDMARK_NEAR_TOOL=$PWD/.build/release/landmark-near after swift build -c release"))
struct DebianPackageTests {
    /// The files the package must hold, as `dpkg-deb --contents` lists them.
    static let expectedFiles = [
        "./usr/bin/landmark-near", "./usr/share/man/man1/landmark-near.1.gz",
        "./usr/share/bash-completion/completions/landmark-near", "./usr/share/zsh/vendor-completions/_landmark-near",
        "./usr/share/fish/vendor_completions.d/landmark-near.fish", "./lib/systemd/system/landmark-near.service",
        "./etc/default/landmark-near", "./usr/share/doc/landmark-near/copyright",
    ]

    @Test func thePackageHoldsTheBinaryManPageCompletionsUnitAndItsRuntimeDependencies() async throws {
        let deb = try await DebianPackageBuild.shared.package()
        let version = try await runTool(["--version"]).stdout.split(separator: " ")[1]
        #expect(deb.lastPathComponent.hasPrefix("landmark-near_\(version)_") && deb.lastPathComponent.hasSuffix(".deb"))

        let contents = try await runProcess("/usr/bin/dpkg-deb", ["--contents", deb.path])
        #expect(contents.status == 0, "\(contents.stderr)")
        let listed = Set(contents.stdout.split(separator: "\n").compactMap { $0.split(separator: " ").last.map(String.init) })
        for file in Self.expectedFiles { #expect(listed.contains(file), "\(file) missing") }

        let depends = try await runProcess("/usr/bin/dpkg-deb", ["--field", deb.path, "Depends"])
        let packages = Set(Self.packageNames(depends.stdout))
        // GEOS, SQLite, libxml2, OpenSSL, zlib linked; PROJ, libcurl, libmicrohttpd, libmosquitto,
        // libnats, GnuTLS opened with dlopen.
        for expected in [
            "libgeos-c1v5", "libsqlite3-0", "libxml2", "libssl3", "zlib1g", "libcurl4", "libmicrohttpd12", "libmosquitto1", "libnats3.4",
        ] {
            #expect(packages.contains(expected), "Depends: \(depends.stdout)")
        }
        #expect(packages.contains { $0.hasPrefix("libproj") } && packages.contains { $0.hasPrefix("libgnutls") })
        let runtimeList = try String(
            contentsOf: repositoryRoot.appendingPathComponent("Scripts/debian-runtime-packages.txt"), encoding: .utf8)
        let listedRuntime = Set(
            runtimeList.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && !$0.hasPrefix("#") })
        #expect(listedRuntime == packages, "Scripts/debian-runtime-packages.txt vs Depends: \(depends.stdout)")

        let conffiles = try await runProcess("/usr/bin/dpkg-deb", ["--info", deb.path, "conffiles"])
        #expect(conffiles.stdout == "/etc/default/landmark-near\n")

        // The files themselves: the binary runs, the man page is the committed one, the unit runs serve.
        let root = try makeTemporaryDirectory("deb-contents")
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(try await runProcess("/usr/bin/dpkg-deb", ["-x", deb.path, root.path], timeout: 120).status == 0)
        let packaged = try await runProcess(root.appendingPathComponent("usr/bin/landmark-near").path, ["--version"])
        #expect(packaged.stdout == (try await runTool(["--version"]).stdout))
        let man = try await runProcess("/bin/gzip", ["-dc", root.appendingPathComponent("usr/share/man/man1/landmark-near.1.gz").path])
        #expect(man.stdout == (try String(contentsOf: repositoryRoot.appendingPathComponent("docs/man/landmark-near.1"), encoding: .utf8)))
        let unit = try String(contentsOf: root.appendingPathComponent("lib/systemd/system/landmark-near.service"), encoding: .utf8)
        #expect(unit.contains("ExecStart=/usr/bin/landmark-near serve $LANDMARK_NEAR_OPTIONS"))
        #expect(unit.contains("EnvironmentFile=/etc/default/landmark-near"))
    }

    /// Changes this machine (installs, then removes the package): only when asked.
    @Test(.enabled(if: DebianPackageEnvironment.installRequested, "set LANDMARK_NEAR_DEB_INSTALL=1 to install the package on this machine"))
    func aptInstallsItAndTheQuickStartRunsFromUsrBin() async throws {
        let deb = try await DebianPackageBuild.shared.package()
        let installed = "/usr/bin/landmark-near"
        let owner = try await runProcess("/usr/bin/dpkg", ["-S", installed])
        try #require(
            !FileManager.default.fileExists(atPath: installed) || owner.stdout.hasPrefix("landmark-near:"),
            "\(installed) exists and is not the package's: not overwriting it")
        let apt = try await runProcess(
            "/usr/bin/apt-get", ["install", "-y", "--no-install-recommends", deb.path],
            environment: ["DEBIAN_FRONTEND": "noninteractive"], timeout: 300)
        try #require(apt.status == 0, "\(apt.stdout)\n\(apt.stderr)")
        let quickStart = try await runProcess(
            installed, ["watch"], stdin: try Data(contentsOf: repositoryRoot.appendingPathComponent("Samples/road-trip.nmea")))
        let removal = try await runProcess(
            "/usr/bin/apt-get", ["remove", "-y", "landmark-near"], environment: ["DEBIAN_FRONTEND": "noninteractive"], timeout: 300)
        // remove keeps the conffile, as it should; purging it leaves the machine as it was.
        let conffileKept = FileManager.default.fileExists(atPath: "/etc/default/landmark-near")
        let purge = try await runProcess("/usr/bin/dpkg", ["--purge", "landmark-near"], timeout: 120)

        #expect(quickStart.status == 0, "\(quickStart.stderr)")
        let names = quickStart.stdout.split(separator: "\n").map { line in
            (try? JSONParser.parse(String(line)))?["landmark"]?["name"]?.stringValue ?? "?"
        }
        #expect(names == ["Turtle Rock", "St. Mary Lake"], "\(quickStart.stdout)")
        #expect(quickStart.stderr.contains("2 notifications"))
        #expect(removal.status == 0, "\(removal.stderr)")
        #expect(!FileManager.default.fileExists(atPath: installed))
        #expect(conffileKept && purge.status == 0, "\(purge.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "/etc/default/landmark-near"))
    }

    /// Package names of a `Depends` field, alternatives and versions dropped.
    static func packageNames(_ field: String) -> [String] {
        field.split(separator: ",").flatMap { $0.split(separator: "|") }.compactMap {
            $0.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: " ").first.map(String.init)
        }
    }
}

/// What the environment asks of the suite (apart from it: a suite's traits cannot read its own
/// members).
enum DebianPackageEnvironment {
    /// The release build `LANDMARK_NEAR_TOOL` names (`toolExecutableURL` checks it is one).
    static let releaseBinary: String? = {
        guard let named = ProcessInfo.processInfo.environment["LANDMARK_NEAR_TOOL"], !named.isEmpty else { return nil }
        return named
    }()

    static let installRequested = ProcessInfo.processInfo.environment["LANDMARK_NEAR_DEB_INSTALL"] == "1"
}

/// The package, made once for the suite (a make takes half a minute to three on a loaded
/// machine), under `.build/deb-tests/`.
actor DebianPackageBuild {
    static let shared = DebianPackageBuild()
    private var made: URL?

    func package() async throws -> URL {
        if let made { return made }
        let out = repositoryRoot.appendingPathComponent(".build/deb-tests")
        let result = try await runProcess(
            "/bin/bash", [repositoryRoot.appendingPathComponent("Scripts/make-deb.sh").path],
            environment: ["BINARY": try toolExecutableURL().path, "OUT": out.path, "XZ_LEVEL": "1"], timeout: 480)
        try #require(result.status == 0, "make-deb.sh: \(result.stderr)")
        let deb = URL(fileURLWithPath: result.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        made = deb
        return deb
    }
}
