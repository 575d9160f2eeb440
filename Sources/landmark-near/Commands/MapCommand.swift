import Foundation
import LandmarkNear

enum MapCommand: Command {
    static let name = "map"
    static let summary = "run fixes through the engine like watch and draw the run (HTML map, GeoJSON)"
    static let help = """
        Usage: landmark-near map [FILE...] --out run.html [--geojson run.geojson] [watch options]

        Runs the fixes through the engine exactly as 'watch' does (same events, same options,
        the same lines on stdout and summary on stderr), then draws the run. At least one of
        --out and --geojson is needed.

            landmark-near map Samples/road-trip.nmea --out road-trip.html
            gpspipe -w | landmark-near map --out live.html --events all

        Drawing:
          --out FILE           one self-contained HTML page (no network request, works
                               offline, prints): a Web Mercator map of each device's track, the
                               favourites and their radius circles (a place: its area or line
                               and its radius outline), every event (notified and suppressed
                               enters, exits) with details on hover, a legend, a scale bar, pan
                               and zoom, and the notifications linked to their markers
          --geojson FILE       the same as RFC 7946 GeoJSON (geojson.io, QGIS, kepler.gl):
                               tracks as LineStrings (split at ±180°), favourites as Points,
                               their radius as geodesic circle Polygons (a place: the place and
                               its radius outline), events as Points with event, device,
                               landmark, time, distanceMeters, notified

        Over 60,000 used fixes, tracks are thinned for drawing (Douglas-Peucker, per device,
        keeping every fix that caused an event), and the page says so. With more than 500
        favourites, only those with an event are drawn.

        Watch options (see 'landmark-near watch --help'):
          --landmarks FILE     landmark catalog (default: the tutorial's twelve)
          --favorites LIST     favourite ids for every device, or 'all'
          --profiles FILE      per-device favourites, prefersNotifications and quietHours
          --radius LEN         enter distance, with mi/km/m/ft (default 5mi); the circles' radius
          --hysteresis LEN     exit beyond radius + this (default 0.25mi)
          --cooldown DUR       s/m/h/d, 0 disables (default 1h)
          --max-accuracy LEN   drop fixes with a worse known accuracy (default 1000m)
          --dwell DUR          notify after DUR inside ("dwell" events, drawn)
          --crossing DUR       enters passed between fixes at most DUR apart (drawn at the
                               point of closest approach)
          --accuracy-policy P  center (default), sure or possible
          --events KIND        stdout lines: 'notifications' (default) or 'all' (the map always
                               shows every event)
          --format FMT         ndjson, csv, nmea, gpx, kml, tcx or geojson (default: detected)
          --apns-dir DIR       also write each notification's payload to DIR as a .apns file
          --thread-id ID       payload thread-id (default 5280)
          --bundle-id ID       add "Simulator Target Bundle" to payloads
          --state FILE         keep device state and a notification log in FILE (SQLite); the
                               map draws this run's fixes
          --strict             stop at the first unreadable record (exit 65); what was read is drawn
          --explain            tell on stderr, for each fix, why it did or did not notify
          -q, --quiet          no summary and no "drew" line at the end (errors and
                               warnings still go to stderr)
          -h, --help           show this help

        SIGINT and SIGTERM stop reading; what was decided is drawn, then the status is 130 or 143.
        Exit status: as watch; 74 when a map file cannot be written.
        """

    static func run(_ arguments: [String], output: OutputWriter) throws(CommandFailure) -> ErrorKind? {
        let command = "landmark-near map"
        let signals = try WatchCommand.signalInbox(command: command)
        let args = try ArgumentScanner(
            arguments, command: command,
            valued: WatchCommand.valuedOptions.union(["out", "geojson"]),
            flags: WatchCommand.flagOptions, aliases: ["q": "quiet"])
        let htmlPath = args.value("out")
        let geoJSONPath = args.value("geojson")
        guard htmlPath != nil || geoJSONPath != nil else {
            throw .usage("\(command): say where to draw the run: --out FILE (HTML) and/or --geojson FILE")
        }
        // Before the first fix: a live stream may run for hours before the files are written.
        if let geoJSONPath { try OutputPaths.requireWritable(geoJSONPath, option: "--geojson", command: command) }
        if let htmlPath { try OutputPaths.requireWritable(htmlPath, option: "--out", command: command) }
        let (pipeline, inputs) = try WatchCommand.startPipeline(args, command: command, output: output)
        let recorder = RunRecorder()
        pipeline.fixObserver = { fix, disposition, events in recorder.record(fix, disposition, events) }
        let (stopped, outcome) = try WatchCommand.finish(
            pipeline, inputs: inputs, signals: signals, output: output, command: command, quiet: args.has("quiet"))
        // What was decided is drawn even when reading stopped early.
        let drawing = self.drawing(recorder, pipeline)
        if let geoJSONPath {
            try write(MapGeoJSON.document(for: drawing), to: geoJSONPath, option: "--geojson", command: command, stopped: stopped)
        }
        if let htmlPath {
            let title =
                args.positionals.isEmpty
                ? "stdin" : args.positionals.map { URL(fileURLWithPath: $0).lastPathComponent }.joined(separator: ", ")
            try write(MapPage.html(for: drawing, title: title), to: htmlPath, option: "--out", command: command, stopped: stopped)
        }
        var note = "\(command): drew \(drawing.drawnPointCount) of \(drawing.fixCount) used fix\(drawing.fixCount == 1 ? "" : "es")"
        if let tolerance = drawing.thinningTolerance {
            note += " (thinned within \(tolerance == tolerance.rounded() ? String(Int(tolerance)) : String(tolerance)) m)"
        }
        let circles = drawing.favorites.count { $0.circle != nil }
        let outlines = drawing.favorites.count - circles
        note += ", \(circles) favourite circle\(circles == 1 ? "" : "s")"
        if outlines > 0 { note += ", \(outlines) place outline\(outlines == 1 ? "" : "s")" }
        note += ", \(drawing.events.count) event\(drawing.events.count == 1 ? "" : "s")"
        if !args.has("quiet") { Console.error(note) }
        if let stopped { throw stopped }
        return outcome
    }

    /// The run ready to draw, each favourite with its own radius (docs/reference/catalogs.md), else the run's.
    static func drawing(_ recorder: RunRecorder, _ pipeline: Pipeline) -> MapDrawing {
        let radius = pipeline.options.engine.radius
        let catalog = pipeline.catalog
        return MapDrawing(
            recorder: recorder, catalog: catalog, favoriteIndices: pipeline.favoriteIndices,
            radius: { index in catalog[index].radius?.meters ?? radius })
    }

    /// Writes a map file atomically (a reader never sees half of it); when reading had stopped
    /// early, that failure is the one reported.
    static func write(_ text: String, to path: String, option: String, command: String, stopped: CommandFailure?) throws(CommandFailure) {
        do {
            try MapFile.write(text, to: path)
        } catch {
            if let stopped { throw stopped }
            throw CommandFailure(error, context: "\(command): \(option) ")
        }
    }
}
