import CMosquitto
@_spi(Inlining) import LandmarkNearCore

#if canImport(Glibc)
import Glibc
#endif

/// libmosquitto's functions that `serve --mqtt` calls, opened when the first MQTT connection is
/// made (`SharedLibrary`): other commands, and `serve` without `--mqtt`, never open it, so a
/// machine without libmosquitto loses only `--mqtt`.
///
///     let mosq = MosquittoLibrary.functions.new_client("landmark-near", false, nil)
enum MosquittoLibrary {
    /// Opened once, on first use (Swift initialises a static `let` lazily and thread-safely),
    /// with `mosquitto_lib_init` called once, as the library asks, before any client is made.
    static let functions: landmark_mosquitto = {
        let table = SharedLibrary(
            names: ["libmosquitto.so", "libmosquitto.so.1"], purpose: "MQTT (libmosquitto)", package: "libmosquitto-dev"
        ).table(landmark_mosquitto_resolve)
        _ = table.lib_init()
        return table
    }()

    /// `major.minor.revision` of the library opened.
    static var version: String {
        var major: Int32 = 0
        var minor: Int32 = 0
        var revision: Int32 = 0
        _ = functions.lib_version(&major, &minor, &revision)
        return "\(major).\(minor).\(revision)"
    }

    /// libmosquitto's text for one of its error codes (`MOSQ_ERR_...`).
    static func describe(_ code: Int32) -> String {
        if code == MOSQ_ERR_ERRNO.rawValue {
            return String(cString: strerror(errno))
        }
        return functions.strerror(code).map { String(cString: $0) } ?? "error \(code)"
    }
}
