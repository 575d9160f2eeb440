import LandmarkNear

/// One subcommand of `landmark-near`: it parses its arguments and wires library pieces together.
protocol Command {
    static var name: String { get }
    /// One line for the top-level help.
    static var summary: String { get }
    /// The full `--help` text.
    static var help: String { get }
    /// Runs the command: nil when all went well, else the kind of what went wrong with part of
    /// the work (some records unreadable, some files missing), which sets the exit status.
    static func run(_ arguments: [String], output: OutputWriter) throws(CommandFailure) -> ErrorKind?
}

/// A command as the dispatcher sees it (a generic wrapper, not an existential: Swift 6.3
/// crashes lowering calls through `any Command.Type`).
struct CommandEntry {
    let name: String
    let summary: String
    let help: String
    let run: ([String], OutputWriter) throws(CommandFailure) -> ErrorKind?

    init<C: Command>(_ command: C.Type) {
        name = C.name
        summary = C.summary
        help = C.help
        run = { (arguments, output) throws(CommandFailure) in try C.run(arguments, output: output) }
    }
}
