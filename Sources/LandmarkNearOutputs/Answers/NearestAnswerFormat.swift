import Foundation
@_spi(Inlining) import LandmarkNearCore
import LandmarkNearIndex
import LandmarkNearReaders

/// The output of `landmark-near nearest`: one JSON object a query, or rows of a table.
///
///     NearestAnswerFormat.json(point: point, neighbors: answers, catalog: .embedded)
///     // {"lat":34.0,"lon":-116.0,"nearest":[{"index":0,"id":1001,"name":"Turtle Rock","distanceMeters":15465.793}]}
package enum NearestAnswerFormat {
    /// `{"lat":..,"lon":..,"nearest":[{"index":..,"id":..,"name":..,"distanceMeters":..}]}`, with
    /// lat and lon as given and distances rounded to the millimetre.
    package static func json(point: QueryPoint, neighbors: [LandmarkNeighbor], catalog: LandmarkCatalog) -> String {
        var out = "{\"lat\":\(point.jsonLatitude),\"lon\":\(point.jsonLongitude),\"nearest\":["
        for (position, neighbor) in neighbors.enumerated() {
            let landmark = catalog[neighbor.index]
            if position > 0 { out += "," }
            out += "{\"index\":\(neighbor.index),\"id\":\(landmark.id),\"name\":"
            JSONWriter.appendString(landmark.name, to: &out)
            out += ",\"distanceMeters\":\(JSONWriter.number(millimetres(neighbor.distance)))}"
        }
        return out + "]}"
    }

    /// The table's column titles.
    package static let header = "query                    rank  index   id          distance                     name"

    /// One row a neighbour (or one row saying there is none), aligned under `header`.
    package static func rows(
        point: QueryPoint, neighbors: [LandmarkNeighbor], catalog: LandmarkCatalog,
        within: Length?
    ) -> [String] {
        let query = pad(TerminalText.safe("\(point.latitudeText),\(point.longitudeText)"), 25)
        guard !neighbors.isEmpty else {
            let reason = within.map { "no landmark within \($0)" } ?? "no landmark (empty catalog)"
            return [query + pad("-", 6) + reason]
        }
        return neighbors.enumerated().map { rank, neighbor in
            let landmark = catalog[neighbor.index]
            return query + pad(String(rank + 1), 6) + pad(String(neighbor.index), 8) + pad(String(landmark.id), 12)
                + pad(distanceText(neighbor.distance), 29) + TerminalText.safe(landmark.name)
        }
    }

    /// "15.596 km (9.691 mi)", or "812.345 m (0.505 mi)" under a kilometre.
    package static func distanceText(_ metres: Double) -> String {
        let miles = String(format: "%.3f mi", metres / 1609.344)
        if metres < 1000 { return String(format: "%.3f m", metres) + " (" + miles + ")" }
        return String(format: "%.3f km", metres / 1000) + " (" + miles + ")"
    }

    /// Metres rounded to the millimetre.
    package static func millimetres(_ metres: Double) -> Double {
        (metres * 1000).rounded() / 1000
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text.padding(toLength: width, withPad: " ", startingAt: 0)
    }
}
