import LandmarkNear

#if canImport(Glibc)
import Glibc
#endif

/// `landmark-near fixes`: the fix readers on their own. Reads any input `watch` reads and prints
/// each fix as one canonical NDJSON line, so other tools (Scripts/spark-watch.py) can split a
/// stream by device without re-implementing the readers: the tool stays the one place that
/// knows how to read a trace.
enum FixesCommand: Command {
    static let name = "fixes"
    static let summary = "read fixes in any input format and print them as plain NDJSON lines"
    static let help = """
        Usage: landmark-near fixes [FILE...] [options]

        Reads location fixes exactly as 'watch' does (the files in order, or stdin when none is
        given, or for '-'; formats detected or forced with --format) and prints each fix as one
        NDJSON line, device first: {"device":"d1","lat":34.01,"lon":-116.17,
        "time":"2026-05-01T12:00:02.5Z","acc":12} (time and acc only when known). Reading the
        output again, e.g. with 'watch --format ndjson', gives the same fixes bit for bit.

            landmark-near fixes drive.gpx > drive.ndjson
            gzip -dc phone.csv.gz | landmark-near fixes --source-name phone.csv

        Options:
          --format FMT         ndjson, csv, nmea, gpx, kml, tcx or geojson (default: detected)
          --source-name NAME   the name stdin goes by in messages (default <stdin>)
          --strict             stop at the first unreadable record (exit 65)
          -q, --quiet          no summary line at the end
          -h, --help           show this help

        Unreadable records are reported on stderr as <source>:<line>: <reason> and skipped.
        At the end a summary line goes to stderr: records read, fixes, unreadable (and the KML
        LineString coordinates not read because the document's gx:Track holds the same track).
        Times without a zone ("2024-05-01 12:00:00") are read as UTC, with one warning.
        On a live stream (a pipe from gpspipe, a phone log being written) every fix is out as
        soon as the input pauses; SIGINT or SIGTERM stop it at a record boundary with what was
        read printed and the summary written.
        Exit status: 0 all records read; 65 some were unreadable (or --strict stopped);
        64 usage error; 66 an input file does not exist; 74 I/O error; 130 SIGINT; 143 SIGTERM.
        """

    static func run(_ arguments: [String], output: OutputWriter) throws(CommandFailure) -> ErrorKind? {
        let command = "landmark-near fixes"
        // First, before anything may start a thread: signals become data on a descriptor.
        let signals = try WatchCommand.signalInbox(command: command)
        let args = try ArgumentScanner(
            arguments, command: command, valued: ["format", "source-name"], flags: ["strict", "quiet"], aliases: ["q": "quiet"])
        var format: FixFormat?
        if let text = args.value("format") {
            guard let chosen = FixFormat(rawValue: text.lowercased()) else {
                throw .usage(
                    "\(command): --format takes ndjson, csv, nmea, gpx, kml, tcx or geojson, not \(TerminalText.singleQuoted(text))")
            }
            format = chosen
        }
        let standardInputName = args.value("source-name") ?? InputSource.standardInput.sourceName
        let inputs = args.positionals.isEmpty ? [.standardInput] : args.positionals.map(InputSource.init(argument:))
        // Missing files are reported before anything is read, as watch does.
        for case .file(let path) in inputs where access(path, F_OK) != 0 {
            throw CommandFailure(.missingInput, "\(command): \(TerminalText.safe(path)): no such file")
        }
        let diagnostics = OutputWriter(descriptor: 2)
        let pause = LiveOutputPause(output: output, signals: signals)
        var read = 0
        var fixes = 0
        var unreadable = 0
        var failure: CommandFailure?
        // Times without a zone are read as UTC: said once a run, at the first fix after one.
        var warnedOfZonelessTime = false
        // KML LineString coordinates not read: the document's gx:Track holds the same track.
        var drawnAgain = 0
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
                        output.writeLine(FixLine.make(fix))
                        if !warnedOfZonelessTime, let time = reader.zonelessTime {
                            warnedOfZonelessTime = true
                            diagnostics.writeLine(TerminalText.safe("\(command): warning: " + time.warning(source: reader.sourceName)))
                            try? diagnostics.flush()
                        }
                    case .invalid(let issue):
                        unreadable += 1
                        if args.has("strict") {
                            failure = CommandFailure(.badData, TerminalText.safe(issue.description) + " (stopped: --strict)")
                            break reading
                        }
                        diagnostics.writeLine(TerminalText.safe(issue.description))
                    }
                }
                drawnAgain += reader.skipped.count(where: { $0 == KMLVocabulary.lineStringCoordinateSkipped })
            } catch {
                // Stopped by a signal or a closed stdout at a pause: not a failure of the input.
                if error.isInterrupted || pause.outputClosed { break reading }
                failure = CommandFailure(error, context: "\(command): ")
                break reading
            }
        }
        try? diagnostics.flush()
        let stopped = pause.stoppedBy.map { $0 == SIGINT ? " (interrupted by SIGINT)" : " (stopped by SIGTERM)" } ?? ""
        let notRead =
            drawnAgain > 0
            ? "; \(drawnAgain) KML LineString coordinate\(drawnAgain == 1 ? "" : "s") not read (the gx:Track holds the same track)" : ""
        if !args.has("quiet") {
            Console.error("\(command): \(read) records read, \(fixes) fixes, \(unreadable) unreadable\(notRead)\(stopped)")
        }
        if let failure { throw failure }
        if let signal = pause.stoppedBy { return signal == SIGINT ? .interrupted : .terminated }
        return unreadable > 0 ? .badData : nil
    }
}
