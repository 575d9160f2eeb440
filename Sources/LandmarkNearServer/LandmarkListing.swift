import Dispatch
@_spi(Inlining) import LandmarkNearCore
import LandmarkNearReaders

/// `GET /landmarks`: the catalog in force, handed out by the engine thread as a value and
/// written as GeoJSON off it. A listing is linear in the catalog (seconds for a debug build and
/// 144,000 landmarks), and fixes must not wait for it; the catalog is copy-on-write, so taking
/// it costs the engine nothing.
package struct LandmarkListing: Sendable, Equatable {
    package var catalog: LandmarkCatalog
    /// The Features as a `PUT` gave them, by id; the others are made from the catalog's entries.
    package var features: [Int: JSONValue]

    package init(catalog: LandmarkCatalog, features: [Int: JSONValue]) {
        self.catalog = catalog
        self.features = features
    }

    /// A FeatureCollection (`application/geo+json`) of every landmark in force, empty positions
    /// left out, in index order, each Feature with its `landmarkIndex`.
    package var response: HTTPResponse {
        var text = "{\"type\":\"FeatureCollection\",\"features\":["
        var first = true
        for index in 0..<catalog.count where !catalog.isVacant(at: index) {
            if !first { text += "," }
            first = false
            Self.append(feature(at: index), index: index, to: &text)
        }
        return HTTPResponse(status: 200, contentType: "application/geo+json", body: Array((text + "]}\n").utf8))
    }

    /// The Feature of the landmark at `index`.
    package func feature(at index: Int) -> JSONValue {
        features[catalog.id(at: index)] ?? LandmarkFeature.feature(of: catalog[index])
    }

    /// One Feature with its `landmarkIndex` (a foreign member, after `type`).
    package static func append(_ feature: JSONValue, index: Int, to text: inout String) {
        guard case .object(var object) = feature else { return JSONWriter.append(feature, to: &text) }
        object.members.removeAll { $0.key == "landmarkIndex" }
        object.members.insert(("landmarkIndex", .number(Double(index))), at: min(1, object.members.count))
        JSONWriter.append(.object(object), to: &text)
    }

    /// Written on a thread of its own, then given.
    package func respond(_ give: @escaping @Sendable (HTTPResponse) -> Void) {
        DispatchQueue.global().async { give(response) }
    }
}
