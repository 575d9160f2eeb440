/// Where an input is read from: a file, or standard input. Fix readers, the payload parser
/// and the catalog loader all take their inputs this way.
///
///     InputSource(argument: "-")            // .standardInput
///     InputSource(argument: "trace.gpx")    // .file("trace.gpx")
public enum InputSource: Sendable, Equatable {
    case standardInput
    case file(String)

    /// Maps a command-line argument to an input: `-` is standard input, anything else a path.
    public init(argument: String) {
        self = argument == "-" ? .standardInput : .file(argument)
    }

    /// The name used in messages: the path as given, or `<stdin>`.
    package var sourceName: String {
        switch self {
        case .standardInput: return "<stdin>"
        case .file(let path): return path
        }
    }
}

/// Where fixes are read from (the name the fix readers' API has always used).
public typealias FixInput = InputSource
