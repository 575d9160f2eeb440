/// Where fixes are read from.
///
///     FixInput(argument: "-")            // .standardInput
///     FixInput(argument: "trace.gpx")    // .file("trace.gpx")
public enum FixInput: Sendable, Equatable {
    case standardInput
    case file(String)

    /// Maps a command-line argument to an input: `-` is standard input, anything else a path.
    public init(argument: String) {
        self = argument == "-" ? .standardInput : .file(argument)
    }

    /// The name used in messages: the path as given, or `<stdin>`.
    public var sourceName: String {
        switch self {
        case .standardInput: return "<stdin>"
        case .file(let path): return path
        }
    }
}
