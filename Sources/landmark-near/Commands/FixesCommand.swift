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
            arguments, command: command, valued: FixInputReading.valued, flags: FixInputReading.flags.union(["quiet"]),
            aliases: ["q": "quiet"])
        var reading = try FixInputReading(args, command: command)
        let diagnostics = OutputWriter(descriptor: 2)
        let pause = LiveOutputPause(output: output, signals: signals)
        reading.run(pause: pause, diagnostics: diagnostics) { fix in
            output.writeLine(FixLine.make(fix))
            return true
        }
        let stopped = pause.stoppedBy.map { $0 == SIGINT ? " (interrupted by SIGINT)" : " (stopped by SIGTERM)" } ?? ""
        if !args.has("quiet") {
            Console.error(
                "\(command): \(reading.read) records read, \(reading.fixes) fixes, \(reading.unreadable) unreadable\(reading.notRead)\(stopped)"
            )
        }
        if let failure = reading.failure { throw failure }
        if let signal = pause.stoppedBy { return signal == SIGINT ? .interrupted : .terminated }
        return reading.unreadable > 0 ? .badData : nil
    }
}
