import LandmarkNear

/// A small command-line scanner: `--name value`, `--name=value`, short aliases (`-k 3`, `-k3`, `-k=3`),
/// boolean flags, positionals (negative numbers and positions such as `-33.9,151.2` among
/// them), and `--` to end options. Each command declares what it takes,
/// so unknown options are usage errors (exit 64) with a one-line reason.
struct ArgumentScanner {
    private(set) var options: [String: String] = [:]
    /// Every value of each valued option, in order (`--webhook-header` repeats; `value` is the last).
    private(set) var repeatedOptions: [String: [String]] = [:]
    private(set) var flags: Set<String> = []
    private(set) var positionals: [String] = []
    /// `landmark-near COMMAND`, which every message of a bad value starts with.
    let command: String

    /// - Parameters:
    ///   - valued: option names that take a value (long form, without dashes).
    ///   - flags: boolean option names.
    ///   - aliases: short forms, e.g. `["k": "k"]`, `["h": "help"]`.
    init(
        _ arguments: [String], command: String, valued: Set<String>, flags flagNames: Set<String>,
        aliases: [String: String] = [:]
    ) throws(CommandFailure) {
        self.command = command
        var allFlags = flagNames
        allFlags.insert("help")
        var aliases = aliases
        aliases["h"] = "help"
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") || ArgumentScanner.isNumber(argument) {
                positionals.append(argument)
                continue
            }
            if argument == "--" { optionsEnded = true; continue }
            var name: String
            var inlineValue: String?
            if argument.hasPrefix("--") {
                name = String(argument.dropFirst(2))
                if let eq = name.firstIndex(of: "=") {
                    inlineValue = String(name[name.index(after: eq)...])
                    name = String(name[..<eq])
                }
            } else {
                var short = String(argument.dropFirst())
                // `-k3` and `-k=3`, as getopt(3) takes them: a one-letter alias of a valued
                // option with its value attached.
                if aliases[short] == nil, let letter = short.first, let long = aliases[String(letter)], valued.contains(long),
                    short.count > 1
                {
                    let rest = short.dropFirst()
                    inlineValue = String(rest.hasPrefix("=") ? rest.dropFirst() : rest)
                    short = String(letter)
                }
                guard let long = aliases[short] else {
                    let known = Array(valued) + Array(allFlags)
                    throw .usage(
                        "\(command): unknown option \(TerminalText.singleQuoted(argument))\(Suggestion.suffix(for: short, among: known, prefix: "--")) (see \(command) --help)"
                    )
                }
                name = long
            }
            if allFlags.contains(name) {
                if inlineValue != nil { throw .usage("\(command): option '--\(name)' takes no value") }
                flags.insert(name)
            } else if valued.contains(name) {
                let value: String
                if let inlineValue {
                    value = inlineValue
                } else {
                    guard index < arguments.count else { throw .usage("\(command): option '--\(name)' needs a value") }
                    value = arguments[index]
                    index += 1
                }
                options[name] = value
                repeatedOptions[name, default: []].append(value)
            } else {
                let known = Array(valued) + Array(allFlags)
                throw .usage(
                    "\(command): unknown option \(TerminalText.singleQuoted(argument))\(Suggestion.suffix(for: name, among: known, prefix: "--")) (see \(command) --help)"
                )
            }
        }
    }

    /// A number or a position, not an option: `-33.9`, `-inf`, `-33.9,151.2`, `-116,2` (no
    /// option starts with a digit or a point).
    private static func isNumber(_ text: String) -> Bool {
        if Double(text) != nil { return true }
        let afterMinus = text.utf8.dropFirst()
        guard let next = afterMinus.first else { return false }
        if next &- 0x30 < 10 { return true }
        return next == UInt8(ascii: ".") && afterMinus.dropFirst().first.map { $0 &- 0x30 < 10 } == true
    }

    func has(_ flag: String) -> Bool { flags.contains(flag) }

    func value(_ name: String) -> String? { options[name] }

    /// Every value of a repeatable option, in order (`--webhook A --webhook B`).
    func values(_ name: String) -> [String] { repeatedOptions[name] ?? [] }

    /// A length option such as `--radius 5mi`.
    func length(_ name: String, default defaultValue: Length) throws(CommandFailure) -> Length {
        guard let text = options[name] else { return defaultValue }
        do {
            return try Length(parsing: text)
        } catch {
            throw .usage("\(command): --\(name): \(TerminalText.safe(error.description))")
        }
    }

    /// A duration option such as `--cooldown 30m`.
    func timeSpan(_ name: String, default defaultValue: TimeSpan) throws(CommandFailure) -> TimeSpan {
        guard let text = options[name] else { return defaultValue }
        do {
            return try TimeSpan(parsing: text)
        } catch {
            throw .usage("\(command): --\(name): \(TerminalText.safe(error.description))")
        }
    }

    /// A non-negative integer option such as `-k 3`.
    func integer(_ name: String, default defaultValue: Int, minimum: Int = 0) throws(CommandFailure) -> Int {
        guard let text = options[name] else { return defaultValue }
        guard let value = Int(text), value >= minimum else {
            throw .usage("--\(name): \(TerminalText.singleQuoted(text)) is not a whole number >= \(minimum)")
        }
        return value
    }
}
