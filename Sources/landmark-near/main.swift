import LandmarkNear

#if canImport(Glibc)
import Glibc
#endif

// A reader that goes away (`| head`) must end us quietly with an error status, not a signal.
signal(SIGPIPE, SIG_IGN)

let commands: [CommandEntry] = [
    CommandEntry(WatchCommand.self), CommandEntry(MapCommand.self), CommandEntry(FixesCommand.self), CommandEntry(NearestCommand.self),
    CommandEntry(LandmarksCommand.self),
    CommandEntry(PayloadCommand.self), CommandEntry(ParseCommand.self), CommandEntry(ValidateCommand.self),
    CommandEntry(ServeCommand.self), CommandEntry(PublishCommand.self), CommandEntry(HashPasswordCommand.self),
    CommandEntry(DeliveriesCommand.self),
    CommandEntry(StateCommand.self), CommandEntry(DevicesCommand.self),
]

let topLevelHelp = """
    landmark-near — proximity notifications: "you are within 5 miles of a favourite landmark".

    Usage: landmark-near <command> [options]

    Commands:
    \(commands.map { "  " + $0.name.padding(toLength: 14, withPad: " ", startingAt: 0) + $0.summary }.joined(separator: "\n"))

      help          a command's full help: 'landmark-near help watch' (or watch --help,
                    or --help watch)

    Run 'landmark-near <command> --help' for a command's options, and
    'landmark-near --version' (or -V) for the version and those of GEOS, PROJ and libxml2.
    Exit status: 0 ok, 64 usage error, 65 bad data, 66 input cannot be opened, 69 deliveries
    failed for good, 74 I/O error, 75 state file in use, 130/143 stopped by SIGINT/SIGTERM.
    """

@MainActor func runMain() -> Int32 {
    let arguments = Array(CommandLine.arguments.dropFirst())
    let output = OutputWriter()
    guard let first = arguments.first else {
        Console.error(topLevelHelp)
        return ExitStatus.usage.rawValue
    }
    if first == "--version" || first == "-V" {
        output.writeLine(Versions.current.description)
        try? output.flush()
        return 0
    }
    let asksForHelp = first == "help" || first == "--help" || first == "-h"
    if asksForHelp && arguments.count == 1 {
        output.writeLine(topLevelHelp)
        try? output.flush()
        return 0
    }
    // `help COMMAND` and `--help COMMAND` are `COMMAND --help`.
    let name = asksForHelp ? arguments[1] : first
    guard let command = commands.first(where: { $0.name == name }) else {
        let suggestion = Suggestion.suffix(for: name, among: commands.map(\.name))
        Console.error(
            "landmark-near: unknown command \(TerminalText.singleQuoted(name))\(suggestion) (commands: \(commands.map(\.name).joined(separator: ", ")))"
        )
        return ExitStatus.usage.rawValue
    }
    if asksForHelp {
        output.writeLine(command.help)
        try? output.flush()
        return 0
    }
    let rest = Array(arguments.dropFirst())
    if rest.contains("--help") || rest.contains("-h") {
        output.writeLine(command.help)
        try? output.flush()
        return 0
    }
    let status: ExitStatus
    do {
        status = ExitStatus(try command.run(rest, output))
    } catch {
        try? output.flush()
        Console.error(error.message)
        return ExitStatus(error.kind).rawValue
    }
    do {
        try output.flush()
    } catch {
        // A reader that went away (`| head -1`) is how pipelines end, not an error.
        if error.code == EPIPE { return status.rawValue }
        Console.error("landmark-near: stdout: \(error.description)")
        return ExitStatus(error.kind).rawValue
    }
    return status.rawValue
}

exit(runMain())
