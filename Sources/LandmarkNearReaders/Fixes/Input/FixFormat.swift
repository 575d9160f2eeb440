/// The fix input formats of docs/reference/fixes.md, by their `--format` names.
///
///     FixFormat(rawValue: "nmea")   // .nmea, as `--format nmea` names it
public enum FixFormat: String, Sendable, CaseIterable {
    /// One JSON object a line: plain fixes, gpsd `gpspipe -w` TPV reports, OwnTracks locations
    /// (also the OwnTracks recorder's `.rec` lines, `TIME<TAB>FLAG<TAB>{json}`).
    case ndjson
    /// A header row naming the columns, then one fix a row (GPSLogger for Android's export;
    /// GPSBabel's unicsv with separate `Date` and `Time` columns).
    case csv
    /// NMEA 0183 RMC, GGA, GLL and GNS sentences of any talker.
    case nmea
    /// GPX 1.0 / 1.1 `trkpt`, `rtept` and `wpt` elements.
    case gpx
    /// KML 2.2: `Point` and `LineString` coordinates, `gx:Track` `when` + `gx:coord` pairs.
    case kml
    /// Garmin Training Center: `Trackpoint` with `Time` and `Position`.
    case tcx
    /// GeoJSON documents: Point, MultiPoint, LineString and MultiLineString features.
    case geojson

    /// The names `--format` takes, in the order help texts list them.
    public static var names: String { allCases.map(\.rawValue).joined(separator: " ") }

    /// GPX, KML and TCX: read by the XML reader, which checks the root element.
    var isXML: Bool { self == .gpx || self == .kml || self == .tcx }
}
