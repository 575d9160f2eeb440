import LandmarkNear

enum ValidateCommand: Command {
    static let name = "validate"
    static let summary = "check payload files against APNs and simctl push rules"
    static let help = """
        Usage: landmark-near validate FILE... ('-' reads stdin)

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

        Exit status: 0 all files valid, 65 some file invalid (not JSON, bad types, too large),
        66 some file cannot be opened (missing, a directory) and none invalid (65 takes
        precedence), 64 usage error.
        """

    static func run(_ arguments: [String], output: OutputWriter) throws(CommandFailure) -> ErrorKind? {
        let command = "landmark-near validate"
        let args = try ArgumentScanner(arguments, command: command, valued: [], flags: [])
        guard !args.positionals.isEmpty else {
            throw .usage("\(command): name at least one payload file (or '-' for stdin)")
        }
        var invalid = false
        var unreadable: ErrorKind?
        for path in args.positionals {
            let source = path == "-" ? "<stdin>" : path
            let shown = TerminalText.safe(source)
            let bytes: [UInt8]
            do {
                bytes = path == "-" ? try PayloadInput.readDescriptor(0, name: source) : try PayloadInput.readFile(path)
            } catch {
                if error.kind == .badData {
                    invalid = true
                    output.writeLine("\(shown): invalid (1 problem)")
                } else {
                    unreadable = unreadable ?? error.kind
                    output.writeLine("\(shown): not checked")
                }
                try? output.flush()
                Console.error(TerminalText.safe(error.description))
                continue
            }
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
        return invalid ? .badData : unreadable
    }
}
