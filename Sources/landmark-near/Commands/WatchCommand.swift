#if canImport(Glibc)
import Glibc
#endif
import LandmarkNear

enum WatchCommand: Command {
    static let name = "watch"
    static let summary = "stream location fixes and print a notification per favourite entered"
    static let help = """
        Usage: landmark-near watch [FILE...] [options]

        Reads location fixes from the files in order (or stdin when none is given, or for '-')
        and prints one JSON line for each notification: a device came within the radius of one
        of its favourite landmarks. Formats are detected (NDJSON incl. gpsd `gpspipe -w` and
        OwnTracks, CSV with a header, NMEA 0183, GPX) or forced with --format.

            gpspipe -w | landmark-near watch
            landmark-near watch drive.gpx --apns-dir out/

        Options:
          --landmarks FILE     landmark catalog (default: the tutorial's twelve; favourites
                               1001, 1003, 1004)
          --favorites LIST     favourite ids for every device, e.g. 1001,1003, or 'all'
                               (default: the catalog's isFavorite flags)
          --profiles FILE      per-device JSON: {"dev": {"favorites": [ids],
                               "prefersNotifications": bool}} (both optional)
          --radius LEN         enter distance, with mi/km/m/ft (default 5mi)
          --hysteresis LEN     exit beyond radius + this (default 0.25mi)
          --cooldown DUR       no second notification for the same device and landmark within
                               this fix-time span: s/m/h/d, 0 disables (default 1h)
          --max-accuracy LEN   drop fixes with a worse known accuracy (default 1000m)
          --events KIND        'notifications' (default) or 'all': also exits and suppressed
                               enters ("notified":false, "reason":"cooldown"|"profile")
          --format FMT         ndjson, csv, nmea or gpx (default: detected)
          --apns-dir DIR       also write each notification's payload to DIR as a .apns file
          --thread-id ID       payload thread-id (default 5280)
          --bundle-id ID       add "Simulator Target Bundle" to payloads (for simctl push)
          --strict             stop at the first unreadable record (exit 65)
          --explain            tell on stderr, for each fix, why it did or did not notify
          -h, --help           show this help

        Unreadable records are reported on stderr as <source>:<line>: <reason> and skipped.
        At the end a summary line goes to stderr.
        Exit status: 0 all records read; 65 some were unreadable (or --strict stopped);
        64 usage error; 66 an input cannot be opened (missing, a directory); 74 I/O error.
        """

    static func run(_ arguments: [String], output: OutputWriter) throws(CommandFailure) -> ErrorKind? {
        let command = "landmark-near watch"
        let args = try ArgumentScanner(
            arguments, command: command,
            valued: ["landmarks", "favorites", "profiles", "radius", "hysteresis", "cooldown", "max-accuracy",
                     "events", "format", "apns-dir", "thread-id", "bundle-id"],
            flags: ["strict", "explain"])
        var options = WatchOptions()
        let radius = try args.length("radius", default: .fiveMiles)
        options.engine.radius = radius.meters
        options.engine.hysteresis = try args.length("hysteresis", default: .quarterMile).meters
        options.engine.maxAccuracy = try args.length("max-accuracy", default: Length(value: 1000, unit: .meters)).meters
        options.engine.cooldown = try args.timeSpan("cooldown", default: .oneHour).seconds
        if let text = args.value("favorites") {
            do {
                options.engine.favorites = try FavoriteSelection(parsing: text)
            } catch {
                throw .usage("\(command): --favorites: \(error.description)")
            }
        }
        if let text = args.value("events") {
            guard let selection = WatchOptions.EventSelection(rawValue: text) else {
                throw .usage("\(command): --events takes 'notifications' or 'all', not '\(text)'")
            }
            options.events = selection
        }
        if let text = args.value("format") {
            guard let format = FixFormat(rawValue: text.lowercased()) else {
                throw .usage("\(command): --format takes ndjson, csv, nmea or gpx, not '\(text)'")
            }
            options.format = format
        }
        options.payload = try PayloadOptionsParsing.options(from: args, radius: radius, command: command)
        options.strict = args.has("strict")
        options.explain = args.has("explain")
        options.apnsDirectory = args.value("apns-dir")
        options.flushEachEvent = standardOutputIsInteractive()

        let catalog = try args.catalog(command: command)
        if let path = args.value("profiles") {
            do {
                options.engine.profiles = try DeviceProfiles.load(path: path)
                for warning in options.engine.profiles.warnings {
                    Console.error("\(command): warning: --profiles \(TerminalText.safe(warning))")
                }
            } catch {
                throw CommandFailure(error, context: "\(command): --profiles ")
            }
        }
        let inputs = args.positionals.isEmpty ? [.standardInput] : args.positionals.map(InputSource.init(argument:))

        let diagnostics = OutputWriter(descriptor: 2)
        let session: WatchSession
        do {
            session = try WatchSession(catalog: catalog, options: options, output: output, diagnostics: diagnostics)
        } catch {
            throw failure(error, command: command)
        }
        do {
            try session.run(inputs: inputs)
        } catch {
            let failure = failure(error, command: command)
            // An input that cannot be opened ends the run before anything was read from it.
            if error.origin != .input || error.kind != .missingInput {
                Console.error("\(command): \(session.statistics.summary)")
            }
            throw failure
        }
        Console.error("\(command): \(session.statistics.summary)")
        return session.statistics.unreadable > 0 ? .badData : nil
    }

    /// The session's error with the option it concerns.
    private static func failure(_ error: WatchError, command: String) -> CommandFailure {
        switch error.origin {
        case .favorites: return CommandFailure(error, context: "\(command): \(error.kind == .usage ? "--favorites" : "--profiles"): ")
        case .apnsDirectory: return CommandFailure(error, context: "\(command): --apns-dir: ")
        case .input, .output: return CommandFailure(error, context: "\(command): ")
        case .record(let issue): return CommandFailure(error.kind, TerminalText.safe(issue.description) + " (stopped: --strict)")
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
