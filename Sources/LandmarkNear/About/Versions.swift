import CGEOS
import CGeodesic
import CLibXML2
@_spi(Inlining) import LandmarkNearGeodesy

/// The version of LandmarkNear and of the C libraries it runs with, as `landmark-near --version`
/// prints them. The libraries' versions are asked of the loaded libraries at run time, not taken
/// from the headers the build saw, so a system upgrade shows.
///
///     print(Versions.current.description)
///     // landmark-near 0.2.0 (GEOS 3.11.1-CAPI-1.17.1, PROJ 9.1.1, libxml2 20914)
package struct Versions: Sendable, CustomStringConvertible {
    /// This package's version (see CHANGELOG.md).
    package static let landmarkNear = "0.2.0"

    package var geos: String
    package var proj: String
    package var libxml2: String

    package static var current: Versions {
        Versions(
            geos: String(cString: GEOSversion()),
            proj: PROJLibrary.functions.proj_info().release.map { String(cString: $0) }.map {
                $0.hasPrefix("Rel. ") ? String($0.dropFirst(5).prefix { $0 != "," }) : $0
            } ?? "unknown",
            libxml2: __xmlParserVersion()?.pointee.map { Versions.dotted(libxml2: String(cString: $0)) } ?? "unknown")
    }

    /// libxml2 gives its version as one number, major * 10000 + minor * 100 + patch ("20914"):
    /// written as people and `xml2-config --version` write it, "2.9.14".
    static func dotted(libxml2 number: String) -> String {
        guard let value = Int(number), value >= 10_000 else { return number }
        return "\(value / 10_000).\(value / 100 % 100).\(value % 100)"
    }

    package var description: String {
        "landmark-near \(Versions.landmarkNear) (GEOS \(geos), PROJ \(proj), libxml2 \(libxml2))"
    }
}
