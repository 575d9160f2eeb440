import LandmarkNear

enum StateCommand: Command {
    static let name = "state"
    static let summary = "check a --state file: SQLite's integrity check and the schema's own"
    static let help = """
        Usage: landmark-near state check FILE

        Checks that a --state database is whole: SQLite's integrity check (every page, index
        and constraint), then that it is a LandmarkNear state database of a schema version this
        release reads, and that every notification and delivery has a status the tool writes.
        Reads the file only, without taking its lock: it may run while watch or serve holds it.
        A start checks less: that the file is an SQLite database of a known schema version,
        not every page.

            landmark-near state check state.db
            state.db: ok (schema 2; 12 devices, 40 notifications, 0 undone, 3 deliveries)

        "undone": notifications decided and not marked done (the next run emits them).

        Options:
          -h, --help        show this help

        Exit status: 0 the file is whole; 65 it is damaged, or not a state database (each
        problem on stdout); 66 no such file, or it cannot be opened; 64 usage error.
        """

    static func run(_ arguments: [String], output: OutputWriter) throws(CommandFailure) -> ErrorKind? {
        let command = "landmark-near state"
        let args = try ArgumentScanner(arguments, command: command, valued: [], flags: [])
        guard let action = args.positionals.first else { throw .usage("\(command): expected 'check FILE'") }
        guard action == "check" else {
            throw .usage("\(command): unknown action \(TerminalText.singleQuoted(action)) (the one action is 'check FILE')")
        }
        guard args.positionals.count == 2 else {
            throw .usage("\(command) check: expected one FILE, found \(args.positionals.count - 1)")
        }
        let path = args.positionals[1]
        let check: StateCheck
        do {
            check = try StateCheck.run(path: path)
        } catch {
            throw CommandFailure(error, context: "\(command) check: ")
        }
        for line in check.report(for: path) { output.writeLine(line) }
        return check.problems.isEmpty ? nil : .badData
    }
}
