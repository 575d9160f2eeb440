import Foundation
import LandmarkNear

enum ValidateCommand: Command {
    static let name = "validate"
    static let summary = "check payload files against APNs and simctl push rules"
    static let help = """
        Usage: landmark-near validate [FILE|DIR...] [--ndjson] (no file or '-' reads stdin;
               a directory: its .apns files, in name order)

        Checks each payload: a JSON object with an "aps" dictionary, at most 4096 bytes
        (whitespace around the document not counted), the standard aps keys well typed (alert,
        badge, sound, content-available, mutable-content, interruption-level, relevance-score,
        thread-id, category, target-content-id, filter-criteria; loc-args only alongside their
        loc-key), and "Simulator Target Bundle" a non-empty string when present.

        Output on stdout: a line a file, 'FILE: ok' or 'FILE: invalid (N problems)', followed by
        each problem with its JSON path, e.g.
          a.apns: $.aps.badge: must be a non-negative integer, got "3"
        Unknown aps keys are warnings ('FILE: warning: $.aps.x: ...'); they do not make a file
        invalid. Files that cannot be read are reported on stderr.

        Options:
          --ndjson     inputs hold one payload a line (sources 'a.ndjson:3', '<stdin>:3');
                       blank lines are skipped
          -h, --help   show this help

        watch's event lines are taken too: their "payload" member is checked, and lines
        without one (exits, suppressed enters) are skipped.

        Exit status: 0 all files valid, 65 some file invalid (not JSON, bad types, too large),
        66 some file cannot be opened (missing) and none invalid (65 takes precedence), 64
        usage error.
        """

    static func run(_ arguments: [String], output: OutputWriter) throws(CommandFailure) -> ErrorKind? {
        let command = "landmark-near validate"
        let args = try ArgumentScanner(arguments, command: command, valued: [], flags: ["ndjson"])
        var run = ValidationRun(output: output)
        // No file: stdin, as `parse` reads it. A directory: its .apns files, in name order (what
        // `watch --apns-dir` wrote).
        var arguments: [String] = []
        for argument in args.positionals.isEmpty ? ["-"] : args.positionals {
            var isDirectory: ObjCBool = false
            if argument != "-", FileManager.default.fileExists(atPath: argument, isDirectory: &isDirectory), isDirectory.boolValue {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: argument)) ?? []
                let payloads = names.filter { $0.hasSuffix(".apns") && !$0.hasPrefix(".") }.sorted()
                if payloads.isEmpty {
                    // Nothing to check is no input, as a directory is everywhere else (66).
                    run.report(
                        InputError(source: argument, reason: "is a directory with no .apns files in it", kind: .missingInput),
                        source: argument)
                }
                arguments += payloads.map { (argument.hasSuffix("/") ? argument : argument + "/") + $0 }
            } else {
                arguments.append(argument)
            }
        }
        for argument in arguments {
            let input = InputSource(argument: argument)
            do {
                if args.has("ndjson") {
                    try PayloadInput.eachLine(of: input) { line in
                        switch line {
                        case .text(let bytes, let source): run.check(Array(bytes), source: source)
                        case .overlong(let source): run.refuse(source: source, reason: PayloadInput.overlongReason())
                        }
                    }
                } else {
                    let bytes =
                        input == .standardInput
                        ? try PayloadInput.readDescriptor(0, name: input.sourceName) : try PayloadInput.readFile(argument)
                    run.check(bytes, source: input.sourceName)
                }
            } catch {
                run.report(error, source: input.sourceName)
            }
        }
        return run.invalid ? .badData : run.unreadable
    }
}

/// What one `validate` invocation has found so far, and where its lines go.
private struct ValidationRun {
    let output: OutputWriter
    var invalid = false
    var unreadable: ErrorKind?

    mutating func check(_ bytes: [UInt8], source: String) {
        var bytes = bytes
        switch EventLinePayload.extract(bytes) {
        case .payload(let payload): bytes = payload
        case .noPayload: return
        case .notAnEventLine: break
        }
        let shown = TerminalText.safe(source)
        let problems = PayloadValidator.validate(bytes)
        let errors = problems.filter(\.isError).count
        let warnings = problems.count - errors
        if errors > 0 {
            invalid = true
            output.writeLine("\(shown): invalid (\(errors) problem\(errors == 1 ? "" : "s"))")
        } else {
            output.writeLine("\(shown): ok" + (warnings > 0 ? " (\(warnings) warning\(warnings == 1 ? "" : "s"))" : ""))
        }
        for problem in problems {
            output.writeLine("\(shown): \(TerminalText.safe(problem.description))")
        }
        try? output.flush()
    }

    mutating func refuse(source: String, reason: String) {
        invalid = true
        output.writeLine("\(TerminalText.safe(source)): invalid (1 problem)")
        try? output.flush()
        Console.error(TerminalText.safe("\(source): \(reason)"))
    }

    mutating func report(_ error: InputError, source: String) {
        if error.kind == .badData {
            invalid = true
            output.writeLine("\(TerminalText.safe(source)): invalid (1 problem)")
        } else {
            unreadable = unreadable ?? error.kind
            output.writeLine("\(TerminalText.safe(source)): not checked")
        }
        try? output.flush()
        Console.error(TerminalText.safe(error.description))
    }
}
