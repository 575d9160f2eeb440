import LandmarkNear

#if canImport(Glibc)
import Glibc
#endif

/// The reading `fixes` and `publish` share: `--format`, `--source-name`, `--strict` and the
/// inputs (the files in order, or stdin), read exactly as `watch` reads them. Each fix goes to
/// the command; unreadable records are reported on stderr (with `--strict`, the first one stops
/// the reading); a time without a zone is warned of once a run; the KML LineString
/// coordinates not read (the document's gx:Track holds the same track) are counted for the
/// summary. Missing files are refused before anything is read, as `watch` does.
///
///     var reading = try FixInputReading(args, command: command)
///     reading.run(pause: pause, diagnostics: diagnostics) { fix in output.writeLine(FixLine.make(fix)); return true }
///     Console.error("\(command): \(reading.read) records read, ...\(reading.notRead)")
struct FixInputReading {
    static let valued: Set<String> = ["format", "source-name"]
    static let flags: Set<String> = ["strict"]

    private let command: String
    private let format: FixFormat?
    private let standardInputName: String
    private let inputs: [InputSource]
    private let strict: Bool
    /// Records read, fixes among them, unreadable ones.
    private(set) var read = 0
    private(set) var fixes = 0
    private(set) var unreadable = 0
    /// Why reading stopped early (an input that failed, `--strict`), if it did.
    private(set) var failure: CommandFailure?
    private var drawnAgain = 0

    init(_ args: ArgumentScanner, command: String) throws(CommandFailure) {
        self.command = command
        if let text = args.value("format") {
            guard let chosen = FixFormat(rawValue: text.lowercased()) else {
                throw .usage(
                    "\(command): --format takes ndjson, csv, nmea, gpx, kml, tcx or geojson, not \(TerminalText.singleQuoted(text))")
            }
            format = chosen
        } else {
            format = nil
        }
        standardInputName = args.value("source-name") ?? InputSource.standardInput.sourceName
        inputs = args.positionals.isEmpty ? [.standardInput] : args.positionals.map(InputSource.init(argument:))
        strict = args.has("strict")
        for case .file(let path) in inputs where access(path, F_OK) != 0 {
            throw CommandFailure(.missingInput, "\(command): \(TerminalText.safe(path)): no such file")
        }
    }

    /// Reads every input, handing each fix to `take`, which returns false to stop the reading
    /// (its own failure, which it keeps). A signal or a closed output at a pause (`pause`)
    /// stops it too, and is not a failure of the input.
    mutating func run(pause: LiveOutputPause, diagnostics: OutputWriter, take: (Fix) -> Bool) {
        // Times without a zone are read as UTC: said once a run, at the first fix after one.
        var warnedOfZonelessTime = false
        reading: for input in inputs {
            do throws(InputError) {
                let reader: FixReader
                switch input {
                case .standardInput:
                    reader = try FixReader(
                        descriptor: 0, ownsDescriptor: false, sourceName: standardInputName, format: format, pauseHandler: pause)
                case .file:
                    reader = try FixReader(input: input, format: format, pauseHandler: pause)
                }
                while let record = try reader.next() {
                    read += 1
                    switch record {
                    case .fix(let fix, _):
                        fixes += 1
                        guard take(fix) else { break reading }
                        if !warnedOfZonelessTime, let time = reader.zonelessTime {
                            warnedOfZonelessTime = true
                            diagnostics.writeLine(TerminalText.safe("\(command): warning: " + time.warning(source: reader.sourceName)))
                            try? diagnostics.flush()
                        }
                    case .invalid(let issue):
                        unreadable += 1
                        if strict {
                            failure = CommandFailure(.badData, TerminalText.safe(issue.description) + " (stopped: --strict)")
                            break reading
                        }
                        diagnostics.writeLine(TerminalText.safe(issue.description))
                    }
                }
                drawnAgain += reader.skipped.count(where: { $0 == KMLVocabulary.lineStringCoordinateSkipped })
            } catch {
                if error.isInterrupted || pause.outputClosed { break reading }
                failure = CommandFailure(error, context: "\(command): ")
                break reading
            }
        }
        try? diagnostics.flush()
    }

    /// `; N KML LineString coordinates not read (...)` for the summary, or nothing.
    var notRead: String {
        drawnAgain > 0
            ? "; \(drawnAgain) KML LineString coordinate\(drawnAgain == 1 ? "" : "s") not read (the gx:Track holds the same track)" : ""
    }
}
