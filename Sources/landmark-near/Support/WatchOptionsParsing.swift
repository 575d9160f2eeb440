import LandmarkNear

/// The options `watch` and `serve` share (docs/reference/engine.md, docs/reference/output.md, docs/reference/payloads.md): parsed once, the same way, for both.
enum WatchOptionsParsing {
    static let valued: Set<String> = [
        "landmarks", "favorites", "profiles", "radius", "hysteresis", "cooldown",
        "max-accuracy", "events", "format", "apns-dir", "thread-id", "bundle-id", "state",
        "dwell", "crossing", "accuracy-policy",
    ]
    static let flags: Set<String> = ["strict", "explain", "quiet"]

    /// Everything but the profiles file (see `profiles`), which a reload reads again.
    static func options(from args: ArgumentScanner, command: String) throws(CommandFailure) -> WatchOptions {
        var options = WatchOptions()
        let radius = try args.length("radius", default: .fiveMiles)
        options.engine.radius = radius.meters
        options.engine.hysteresis = try args.length("hysteresis", default: .quarterMile).meters
        options.engine.maxAccuracy = try args.length("max-accuracy", default: Length(value: 1000, unit: .meters)).meters
        options.engine.cooldown = try args.timeSpan("cooldown", default: .oneHour).seconds
        // The motion rules: off unless given (0 turns them off too).
        if args.value("dwell") != nil {
            let dwell = try args.timeSpan("dwell", default: TimeSpan(seconds: 0)).seconds
            options.engine.dwell = dwell > 0 ? dwell : nil
        }
        if args.value("crossing") != nil {
            let gap = try args.timeSpan("crossing", default: TimeSpan(seconds: 0)).seconds
            options.engine.crossingGap = gap > 0 ? gap : nil
        }
        if let text = args.value("accuracy-policy") {
            guard let policy = AccuracyPolicy(rawValue: text.lowercased()) else {
                throw .usage(
                    "\(command): --accuracy-policy takes center, sure or possible, not \(TerminalText.singleQuoted(text))")
            }
            options.engine.accuracyPolicy = policy
        }
        if let text = args.value("favorites") {
            do {
                options.engine.favorites = try FavoriteSelection(parsing: text)
            } catch {
                throw .usage("\(command): --favorites: \(error.description)")
            }
        }
        if let text = args.value("events") {
            guard let selection = WatchOptions.EventSelection(rawValue: text) else {
                throw .usage("\(command): --events takes 'notifications' or 'all', not \(TerminalText.singleQuoted(text))")
            }
            options.events = selection
        }
        if let text = args.value("format") {
            guard let format = FixFormat(rawValue: text.lowercased()) else {
                throw .usage("\(command): --format takes one of \(FixFormat.names), not \(TerminalText.singleQuoted(text))")
            }
            options.format = format
        }
        options.payload = try PayloadOptionsParsing.options(from: args, radius: radius, command: command)
        options.strict = args.has("strict")
        options.explain = args.has("explain")
        options.apnsDirectory = args.value("apns-dir")
        if options.apnsDirectory?.isEmpty == true {
            throw .usage("\(command): --apns-dir needs a directory name, not an empty string")
        }
        options.landmarksPath = args.value("landmarks")
        options.profilesPath = args.value("profiles")
        return options
    }

    /// `--profiles FILE`, read now.
    static func profiles(from args: ArgumentScanner, command: String) throws(CommandFailure) -> DeviceProfiles? {
        guard let path = args.value("profiles") else { return nil }
        do {
            let profiles = try ProfilesFile.load(path: path)
            for warning in profiles.warnings {
                Console.error("\(command): warning: --profiles \(TerminalText.safe(warning))")
            }
            return profiles
        } catch {
            throw CommandFailure(error, context: "\(command): --profiles ")
        }
    }
}
