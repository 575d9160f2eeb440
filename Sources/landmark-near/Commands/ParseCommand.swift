#if canImport(Glibc)
import Glibc
#endif
import LandmarkNear

enum ParseCommand: Command {
    static let name = "parse"
    static let summary = "show payloads as the watch notification would (title, message, landmark)"
    static let help = """
        Usage: landmark-near parse [FILE...] [--json] [--ndjson] [--landmarks FILE] [--strings FILE]

        Reads notification payloads and prints the view model the tutorial's watch app shows:
        the title (aps.alert.title, else "Unknown Landmark"), the message (aps.alert.body or a
        plain-string aps.alert, else "You are within 5 miles of one of your favorite
        landmarks."), and the landmark that landmarkIndex selects from the catalog.
        Each FILE holds one JSON payload; with no FILE, or '-', stdin holds one payload.

        Options:
          --json            print one compact JSON object a payload:
                            {"source":..,"title":..,"message":..,"landmark":{"index":..,"id":..,
                            "name":..,"park":..,"state":..}} ("landmark" null when there is none)
          --ndjson          inputs hold one payload a line (sources '<stdin>:3', 'a.ndjson:3');
                            blank lines are skipped
          --landmarks FILE  the catalog landmarkIndex refers to (default: the tutorial's twelve)
          --strings FILE    a Localizable.strings table for title-loc-key / loc-key alerts;
                            without it (or for a key it lacks) the key itself is shown, with a
                            warning on stderr
          -h, --help        show this help

        A payload that is not JSON, not an object, whose aps or aps.alert has the wrong type,
        whose title/body is not a string or whose landmarkIndex is not an integer, is rejected
        with a message on stderr naming the source and the key; nothing is printed for it and
        the other payloads are still read. An out-of-range landmarkIndex shows no landmark and
        warns on stderr.

        Exit status: 0 ok (warnings included), 65 when some payload was rejected, 66 when some
        file is missing or unreadable and none was rejected (65 takes precedence), 64 usage error.
        """

    static func run(_ arguments: [String], output: OutputWriter) throws(CommandFailure) -> ExitStatus {
        let command = "landmark-near parse"
        let args = try ArgumentScanner(arguments, command: command, valued: ["landmarks", "strings"], flags: ["json", "ndjson"])
        let catalog = try args.catalog()
        let strings = try loadStrings(args.value("strings"), command: command)
        var run = ParseRun(catalog: catalog, strings: strings, json: args.has("json"), output: output)
        let sources = args.positionals.isEmpty ? ["-"] : args.positionals
        for source in sources {
            if args.has("ndjson") {
                run.parseLines(of: source)
            } else {
                run.parseWhole(source)
            }
        }
        if run.rejected { return .dataError }
        if run.missing { return .noInput }
        return .success
    }

    private static func loadStrings(_ path: String?, command: String) throws(CommandFailure) -> LocalizedStrings? {
        guard let path else { return nil }
        do {
            return try LocalizedStrings(bytes: PayloadInput.readFile(path), source: path)
        } catch let error as PayloadInputError {
            throw CommandFailure(status: error.kind == .tooLarge ? .dataError : .noInput, message: "\(command): --strings \(error.description)")
        } catch let error as StringsParseError {
            throw CommandFailure(status: .dataError, message: "\(command): --strings \(error.description)")
        } catch {
            throw CommandFailure(status: .dataError, message: "\(command): --strings \(path): \(error)")
        }
    }
}

/// The state of one `parse` invocation: the shared inputs, and what went wrong so far.
private struct ParseRun {
    let catalog: LandmarkCatalog
    let strings: LocalizedStrings?
    let json: Bool
    let output: OutputWriter
    var rejected = false
    var missing = false
    private var printedCards = 0

    init(catalog: LandmarkCatalog, strings: LocalizedStrings?, json: Bool, output: OutputWriter) {
        self.catalog = catalog
        self.strings = strings
        self.json = json
        self.output = output
    }

    mutating func parseWhole(_ source: String) {
        let name = source == "-" ? "<stdin>" : source
        let bytes: [UInt8]
        do {
            bytes = source == "-" ? try PayloadInput.readDescriptor(0, name: name) : try PayloadInput.readFile(source)
        } catch {
            report(error)
            return
        }
        parse(bytes, source: name)
    }

    mutating func parseLines(of source: String) {
        let name = source == "-" ? "<stdin>" : source
        var fd: Int32 = 0
        if source != "-" {
            do {
                fd = try PayloadInput.openFile(source)
            } catch {
                report(error)
                return
            }
        }
        defer { if fd != 0 { close(fd) } }
        var lines = PayloadLines(descriptor: fd, name: name)
        while true {
            let line: PayloadLines.Line
            do {
                guard let next = try lines.next() else { return }
                line = next
            } catch {
                report(error)
                return
            }
            let lineSource = "\(name):\(line.number)"
            if line.isTooLong {
                rejected = true
                Console.error("\(lineSource): a line longer than \(PayloadParser.maximumInputBytes) bytes, far too large for a notification payload")
                continue
            }
            if line.bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
            parse(line.bytes, source: lineSource)
        }
    }

    private mutating func parse(_ bytes: [UInt8], source: String) {
        do {
            let (model, warnings) = try PayloadParser.parse(bytes, source: source, catalog: catalog, strings: strings)
            for warning in warnings { Console.error("warning: " + TerminalText.safe(warning)) }
            if json {
                output.writeLine(model.json(source: source))
            } else {
                if printedCards > 0 { output.writeLine("") }
                for line in NotificationCard.lines(for: model, source: source) { output.writeLine(line) }
                printedCards += 1
            }
        } catch {
            rejected = true
            Console.error("error: " + TerminalText.safe(error.description))
        }
    }

    private mutating func report(_ error: PayloadInputError) {
        switch error.kind {
        case .missing, .unreadable: missing = true
        case .tooLarge: rejected = true
        }
        Console.error("error: " + TerminalText.safe(error.description))
    }
}
