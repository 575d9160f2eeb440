import LandmarkNear

#if canImport(Glibc)
import Glibc
#endif

enum WatchCommand: Command {
    static let name = "watch"
    static let summary = "stream location fixes and print a notification per favourite entered"
    static let help = """
        Usage: landmark-near watch [FILE...] [options]

        Reads location fixes from the files in order (or stdin when none is given, or for '-')
        and prints one JSON line for each notification: a device came within the radius of one
        of its favourite landmarks. Formats are detected from the first line that settles it
        (NDJSON incl. gpsd `gpspipe -w`, OwnTracks and its recorder's .rec files; CSV with a
        header, also GPSBabel's unicsv Date + Time; NMEA 0183; GPX, KML and TCX by their root
        element; GeoJSON documents up to 256 MiB each, each read as soon as it is complete),
        gzip-compressed or not, or forced with --format. A non-empty input that gives no fix
        and no error (only comments or blank lines, too) gets one warning saying why.

            gpspipe -w | landmark-near watch
            landmark-near watch drive.gpx --apns-dir out/

        Options:
          --landmarks FILE     landmark catalog (default: the tutorial's twelve; favourites
                               1001, 1003, 1004); a file, a pipe, a FIFO or /dev/stdin. An
                               entry's own "radius" replaces --radius for it. Areas and lines
                               (GeoJSON Polygon, LineString, ...; CSV wkt) are measured from
                               their edges, 0 inside an area (radius 0: inside)
          --favorites LIST     favourite ids for every device, e.g. 1001,1003, or 'all'
                               (default: the catalog's isFavorite flags)
          --profiles FILE      per-device JSON: {"dev": {"favorites": [ids],
                               "prefersNotifications": bool, "quietHours": {"from": "22:00",
                               "to": "07:00", "timeZone": "Europe/Berlin"}}} (all optional;
                               quiet hours in local wall time, zones of /usr/share/zoneinfo)
          --radius LEN         enter distance, with mi/km/m/ft (default 5mi)
          --hysteresis LEN     exit beyond radius + this (default 0.25mi)
          --cooldown DUR       no second notification for the same device and landmark within
                               this fix-time span: s/m/h/d, 0 disables (default 1h)
          --max-accuracy LEN   drop fixes with a worse known accuracy (default 1000m)
          --dwell DUR          notify only once the device has stayed inside for DUR (fix
                               time): a "dwell" event with "enteredAt"; an exit first cancels
                               it, an untimed enter never dwells (default: notify at the enter)
          --crossing DUR       a landmark passed between two timed fixes at most DUR apart is
                               an enter ("via":"crossing") at the point of closest approach on
                               the geodesic between them, its time interpolated (default: off)
          --accuracy-policy P  center (default: the position alone), sure (enter only when the
                               whole accuracy circle is within the radius) or possible (enter
                               when any of it is); both exit only when all of it is beyond
          --events KIND        'notifications' (default) or 'all': also exits and suppressed
                               enters ("notified":false, "reason":"cooldown"|"profile"|"quiet"|
                               "dwell")
          --format FMT         ndjson, csv, nmea, gpx, kml, tcx or geojson (default: detected;
                               gzip is always detected)
          --apns-dir DIR       also write each notification's payload to DIR as a .apns file
          --geojson FILE       at the end, write the run as GeoJSON: tracks, favourite circles
                               and every event (see 'landmark-near map --help')
          --thread-id ID       payload thread-id (default 5280)
          --bundle-id ID       add "Simulator Target Bundle" to payloads (for simctl push)
        \(DeliveryOptionsParsing.help)
          --state FILE         keep device state and a notification log in FILE (SQLite,
                               created when missing): a restart resumes where the last run
                               stopped (an NMEA stream's latest RMC date included), and
                               re-emits what a killed run had decided and not yet printed
                               or written; one process per FILE
          --strict             stop at the first unreadable record (exit 65)
          --explain            tell on stderr, for each fix, why it did or did not notify
          -q, --quiet          no summary line at the end (errors and warnings still go
                               to stderr)
          -h, --help           show this help

        Unreadable records are reported on stderr as <source>:<line>: <reason> and skipped.
        At the end a summary line goes to stderr: fixes read, used, dropped by reason,
        notifications; stale fixes at the very time of a used one are counted apart (NMEA's RMC
        and GGA of one second are two fixes: the second is stale, nothing is lost). Event
        lines write positions as the input did; NMEA minutes with their precision: k decimals
        of minutes give degrees at k + 2 decimals, at least 7 (3402.97560 -> 34.0495933). Times
        without a zone ("2024-05-01 12:00:00") are read as UTC, with one warning a run; a KML's
        LineStrings are not read when it holds a gx:Track (the same track), and are counted. On
        a live input (pipe, terminal, socket) each notification is flushed at once, whatever
        stdout is.
        Signals: SIGINT/SIGTERM stop at a record boundary, flush, print the summary and exit
        130/143; SIGHUP reads --landmarks and --profiles again, keeping every device's state
        (a file that cannot be used is reported and the old one kept). A closed stdout
        (| head -1) ends the run quietly with status 0.
        Deliveries run beside reading, on their own thread. APNs answers: 200 delivered;
        410 Unregistered, 400 BadDeviceToken or DeviceTokenNotForTopic retire the token;
        403 ExpiredProviderToken renews the JWT and sends again; 429, 500, 503 and connection
        errors are tried again (1 s, doubling, at most 5 min apart) until the expiration;
        anything else fails. Retries, failures and retired tokens are logged on stderr (with
        --explain, every delivery); tokens only ever appear as their last 8 hex digits. At the
        end of input, watch waits for outstanding deliveries (SIGINT/SIGTERM end the wait);
        the summary counts delivered, retried, failed and retired. With --state each delivery
        is recorded (see landmark-near deliveries) and a restart sends what was not delivered.

            landmark-near watch --profiles p.json --push apns --apns-key AuthKey_ABC123DEFG.p8 \\
              --apns-key-id ABC123DEFG --apns-team-id DEF123GHIJ --apns-topic com.example.Landmarks

        Exit status: 0 all records read; 65 some were unreadable (or --strict stopped, or an
        input read with --format held no fix of that format); 64 usage error; 66 an input
        cannot be opened (missing, a directory); 69 a delivery failed for good (--push,
        --webhook); 74 I/O error (an output that cannot be written is found before the
        first fix); 75 the --state file is in use by another process; 130 SIGINT; 143 SIGTERM.
        """

    static func run(_ arguments: [String], output: OutputWriter) throws(CommandFailure) -> ErrorKind? {
        let command = "landmark-near watch"
        let signals = try signalInbox(command: command)
        let args = try ArgumentScanner(
            arguments, command: command, valued: valuedOptions.union(["geojson"]), flags: flagOptions, aliases: ["q": "quiet"])
        if let path = args.value("geojson") { try OutputPaths.requireWritable(path, option: "--geojson", command: command) }
        // Reading a file starts before the catalog loads (they overlap on the second core).
        let readingAhead = readAhead(args)
        let (pipeline, inputs) = try startPipeline(args, command: command, output: output, readingAhead: readingAhead)
        let recorder = args.value("geojson").map { _ in RunRecorder() }
        if let recorder {
            pipeline.fixObserver = { fix, disposition, events in recorder.record(fix, disposition, events) }
        }
        let (stopped, outcome) = try finish(
            pipeline, inputs: inputs, signals: signals, output: output, command: command, readingAhead: readingAhead,
            quiet: args.has("quiet"))
        // What was decided is drawn even when reading stopped early.
        if let recorder, let path = args.value("geojson") {
            try MapCommand.write(
                MapGeoJSON.document(for: MapCommand.drawing(recorder, pipeline)), to: path,
                option: "--geojson", command: command, stopped: stopped)
        }
        if let stopped { throw stopped }
        return outcome
    }

    /// The options every engine run takes (`watch`, `map`).
    static let valuedOptions: Set<String> = WatchOptionsParsing.valued.union(DeliveryOptionsParsing.valued)
    static let flagOptions: Set<String> = WatchOptionsParsing.flags

    /// First, before anything may start a thread: signals become data on a descriptor.
    static func signalInbox(command: String) throws(CommandFailure) -> SignalInbox {
        do {
            return try SignalInbox(signals: [SIGINT, SIGTERM, SIGHUP])
        } catch {
            throw CommandFailure(error, context: "\(command): ")
        }
    }

    /// The first input read ahead (`FixReadAhead`), when `ReadAheadRule` says it will be; the
    /// pipeline has the last word.
    static func readAhead(_ args: ArgumentScanner) -> FixReadAhead? {
        var format: FixFormat?
        if let text = args.value("format") {
            guard let forced = FixFormat(rawValue: text.lowercased()) else { return nil }
            format = forced
        }
        let first = args.positionals.first.map(InputSource.init(argument:)) ?? .standardInput
        let delivers = args.value("push") != nil || !args.values("webhook").isEmpty
        guard ReadAheadRule.applies(to: first, keepsState: args.value("state") != nil, delivers: delivers) else { return nil }
        return FixReadAhead(input: first, format: format)
    }

    /// Parses the watch options (shared by `watch` and `map`) and opens the pipeline on them.
    static func startPipeline(
        _ args: ArgumentScanner, command: String, output: OutputWriter, readingAhead: FixReadAhead? = nil
    ) throws(CommandFailure) -> (Pipeline, [InputSource]) {
        var options = try WatchOptionsParsing.options(from: args, command: command)
        options.flushEachEvent = standardOutputIsInteractive()
        options.commandName = command

        // A start-up with places reads and measures them on both cores before the first fix: the
        // reader yields to it (a hint from the file's start; the catalog decides everything else).
        if let readingAhead, let path = args.value("landmarks"), PlaceHint.mayHoldPlaces(path: path) {
            readingAhead.yieldUntilTheEngineStarts()
        }
        let catalog = try args.catalog(command: command)
        if let profiles = try WatchOptionsParsing.profiles(from: args, command: command) {
            options.engine.profiles = profiles
        }
        options.delivery = try DeliveryOptionsParsing.options(
            from: args, bundleID: options.payload.bundleID,
            verbose: options.explain, command: command,
            warn: Console.error)
        let inputs: [InputSource] = args.positionals.isEmpty ? [.standardInput] : args.positionals.map(InputSource.init(argument:))

        var store: StateStore?
        if let path = args.value("state") {
            do {
                store = try StateStore(path: path)
            } catch {
                throw CommandFailure(error, context: "\(command): --state ")
            }
        }
        let diagnostics = OutputWriter(descriptor: 2)
        let pipeline: Pipeline
        do throws(WatchError) {
            // The changes a serve took over its API and kept in the file apply here too, so a
            // replay over its state sees the catalog it had (docs/reference/state.md).
            var inForce = catalog
            var overlay: CatalogOverlay?
            if let store {
                let kept = try CatalogOverlay(store: store)
                do {
                    inForce = try kept.catalog(over: catalog)
                } catch {
                    throw WatchError(kind: error.kind, origin: .state, message: error.description)
                }
                options.engine.profiles = kept.profiles(over: options.engine.profiles)
                overlay = kept
            }
            pipeline = try Pipeline(catalog: inForce, options: options, output: output, diagnostics: diagnostics, store: store)
            pipeline.overlay = overlay
        } catch {
            throw failure(error, command: command)
        }
        if pipeline.favoriteIndices.isEmpty { Console.error("\(command): warning: \(noFavoritesWarning)") }
        return (pipeline, inputs)
    }

    /// Said at start when no device can have a favourite: a run that cannot notify at all
    /// otherwise ends with a silent "0 notifications".
    static let noFavoritesWarning =
        "no favourite landmarks: nothing can notify (the catalog marks none isFavorite; choose some with --favorites IDS or 'all', or per device with --profiles)"

    /// Runs the pipeline to its end and prints the summary. An input that cannot be opened is
    /// thrown at once; any other failure comes back as `stopped` (what was decided can still be
    /// drawn), else the outcome's kind (nil for success).
    static func finish(
        _ pipeline: Pipeline, inputs: [InputSource], signals: SignalInbox, output: OutputWriter,
        command: String, readingAhead: FixReadAhead? = nil, quiet: Bool = false
    ) throws(CommandFailure) -> (stopped: CommandFailure?, outcome: ErrorKind?) {
        do {
            try pipeline.run(inputs: inputs, signals: signals, readingAhead: readingAhead)
        } catch {
            // An input that cannot be opened ends the run before anything was read from it.
            if error.origin == .input && error.kind == .missingInput { throw failure(error, command: command) }
            let (summary, _, _) = finishDeliveries(pipeline, output: output, signals: signals)
            if !quiet { Console.error("\(command): \(summary)") }
            return (failure(error, command: command), nil)
        }
        let (summary, signal, failedForGood) = finishDeliveries(pipeline, output: output, signals: signals)
        if !quiet { Console.error("\(command): \(summary)") }
        switch pipeline.statistics.stoppedBy {
        case .signal(let number)?: return (nil, number == SIGTERM ? .terminated : .interrupted)
        case .outputClosed?: return (nil, nil)
        case nil:
            if let signal { return (nil, signal == SIGTERM ? .terminated : .interrupted) }
            let statistics = pipeline.statistics
            if statistics.unreadable > 0 || statistics.forcedFormatReadNothing > 0 { return (nil, .badData) }
            // Notifications that never reached APNs or the webhook: the run did not do its job.
            return (nil, failedForGood > 0 ? .unavailable : nil)
        }
    }

    /// Waits for the outstanding deliveries and returns the summary line with their counts,
    /// and the signal that ended the wait. A run already stopped by a signal does not wait
    /// (with --state, what was not delivered is sent by the next run).
    private static func finishDeliveries(_ pipeline: Pipeline, output: OutputWriter, signals: SignalInbox) -> (
        summary: String, signal: Int32?, failedForGood: Int
    ) {
        var summary = pipeline.statistics.summary
        // What was printed is flushed before the wait: deliveries may take a while.
        try? output.flush()
        let stoppedBySignal: Bool
        if case .signal? = pipeline.statistics.stoppedBy { stoppedBySignal = true } else { stoppedBySignal = false }
        var received: Int32?
        let outcome = pipeline.finishDeliveries(shouldStop: {
            if stoppedBySignal { return true }
            while received == nil, let number = signals.take() {
                if number != SIGHUP { received = number }
            }
            return received != nil
        })
        guard let (deliveries, interrupted) = outcome else { return (summary, nil, 0) }
        summary += "; " + deliveries.summary
        guard interrupted else { return (summary, nil, deliveries.failed) }
        return (summary + (stoppedBySignal ? "" : " (interrupted while waiting for deliveries)"), received, deliveries.failed)
    }

    /// The pipeline's error with the option it concerns.
    static func failure(_ error: WatchError, command: String) -> CommandFailure {
        switch error.origin {
        case .favorites: return CommandFailure(error, context: "\(command): \(error.kind == .usage ? "--favorites" : "--profiles"): ")
        case .apnsDirectory: return CommandFailure(error, context: "\(command): --apns-dir: ")
        case .input, .output, .closedOutput: return CommandFailure(error, context: "\(command): ")
        case .state: return CommandFailure(error, context: "\(command): --state ")
        case .record(let issue): return CommandFailure(error.kind, TerminalText.safe(issue.description) + " (stopped: --strict)")
        case .delivery: return CommandFailure(error, context: "\(command): ")
        }
    }

    /// Pipes and terminals get each notification at once; files and /dev/null get big writes.
    private static func standardOutputIsInteractive() -> Bool {
        var status = stat()
        guard fstat(1, &status) == 0 else { return false }
        let type = status.st_mode & S_IFMT
        return type == S_IFIFO || type == S_IFSOCK || isatty(1) == 1
    }
}
