import LandmarkNear

enum ParseCommand: Command {
    static let name = "parse"
    static let summary = "show payloads as the watch notification would (title, message, landmark)"
    static let help = """
        Usage: landmark-near parse [FILE...] [--json] [--ndjson] [--landmarks FILE] [--strings FILE]

        Reads notification payloads and prints the view model the tutorial's watch app shows:
        the title (aps.alert.title, else "Unknown Landmark"), the message (aps.alert.body or a
        plain-string aps.alert, else "You are within 5 miles of one of your favorite
        landmarks."), and the landmark that landmarkIndex selects from the catalog.
        Each FILE holds one JSON payload; with no FILE, or '-', stdin holds one payload.

        Options:
          --json            print one compact JSON object a payload:
                            {"source":..,"title":..,"message":..,"landmark":{"index":..,"id":..,
                            "name":..,"park":..,"state":..}} ("landmark" null when there is none)
          --ndjson          inputs hold one payload a line (sources '<stdin>:3', 'a.ndjson:3');
                            blank lines are skipped
          --landmarks FILE  the catalog landmarkIndex refers to (default: the tutorial's twelve)
          --strings FILE    a Localizable.strings table for title-loc-key / loc-key alerts;
                            without it (or for a key it lacks) the key itself is shown, with a
                            warning on stderr
          -h, --help        show this help

        A payload that is not JSON, not an object, whose aps or aps.alert has the wrong type,
        whose title/body is not a string or whose landmarkIndex is not an integer, is rejected
        with a message on stderr naming the source and the key; nothing is printed for it and
        the other payloads are still read. An out-of-range landmarkIndex shows no landmark and
        warns on stderr.

        Exit status: 0 ok (warnings included), 65 when some payload was rejected, 66 when some
        file cannot be opened (missing, a directory) and none was rejected (65 takes precedence),
        64 usage error.
        """

    static func run(_ arguments: [String], output: OutputWriter) throws(CommandFailure) -> ErrorKind? {
        let command = "landmark-near parse"
        let args = try ArgumentScanner(arguments, command: command, valued: ["landmarks", "strings"], flags: ["json", "ndjson"])
        let catalog = try args.catalog(command: command)
        let strings = try loadStrings(args.value("strings"), command: command)
        let session = ParseSession(
            catalog: catalog, strings: strings, format: args.has("json") ? .json : .card,
            output: output, diagnostics: OutputWriter(descriptor: 2))
        let sources = args.positionals.isEmpty ? ["-"] : args.positionals
        for source in sources.map(InputSource.init(argument:)) {
            if args.has("ndjson") {
                session.parseLines(of: source)
            } else {
                session.parse(source)
            }
        }
        return session.failure
    }

    private static func loadStrings(_ path: String?, command: String) throws(CommandFailure) -> LocalizedStrings? {
        guard let path else { return nil }
        let bytes: [UInt8]
        do {
            bytes = try PayloadInput.readFile(path)
        } catch {
            throw CommandFailure(error, context: "\(command): --strings ")
        }
        do {
            return try LocalizedStrings(bytes: bytes, source: path)
        } catch {
            throw CommandFailure(error, context: "\(command): --strings ")
        }
    }
}
