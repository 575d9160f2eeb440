/// The fix input formats of SPEC §3.
///
///     FixFormat(rawValue: "nmea")   // .nmea, as `--format nmea` names it
public enum FixFormat: String, Sendable, CaseIterable {
    /// One JSON object a line: plain fixes, gpsd `gpspipe -w` TPV reports, OwnTracks locations.
    case ndjson
    /// A header row naming the columns, then one fix a row (GPSLogger for Android's export).
    case csv
    /// NMEA 0183 RMC, GGA, GLL and GNS sentences of any talker.
    case nmea
    /// GPX 1.0 / 1.1 `trkpt`, `rtept` and `wpt` elements.
    case gpx
}
