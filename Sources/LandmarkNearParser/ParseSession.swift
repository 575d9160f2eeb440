@_spi(Inlining) import LandmarkNearCore

/// Reads payloads, parses them into view models and prints them: the whole of
/// `landmark-near parse`, minus argument parsing (as `WatchSession` is for `watch`).
///
///     let session = ParseSession(catalog: .embedded, strings: nil, format: .json,
///                                output: OutputWriter(), diagnostics: OutputWriter(descriptor: 2))
///     session.parse(.file("a.apns"))
///     session.parseLines(of: .standardInput)   // one payload a line
///     session.failure                          // nil, or the kind of the worst problem
///
/// A payload that cannot be parsed is reported on `diagnostics` and the others are still read;
/// warnings (an out-of-range `landmarkIndex`, an unresolved `loc-key`) are reported too.
package final class ParseSession {
    /// How view models are printed.
    package enum Format: Sendable {
        /// The card the watch would show (`NotificationCard`), blank lines between cards.
        case card
        /// One compact JSON object a payload (`NotificationViewModel.json(source:)`).
        case json
    }

    package let catalog: LandmarkCatalog
    package let strings: LocalizedStrings?
    package let format: Format
    private let output: OutputWriter
    private let diagnostics: OutputWriter
    /// Payloads rejected: not JSON, wrong types, too large.
    package private(set) var rejected = 0
    /// Inputs that could not be opened or read.
    package private(set) var unreadable: [ErrorKind] = []
    private var printedCards = 0

    package init(
        catalog: LandmarkCatalog, strings: LocalizedStrings?, format: Format,
        output: OutputWriter, diagnostics: OutputWriter
    ) {
        self.catalog = catalog
        self.strings = strings
        self.format = format
        self.output = output
        self.diagnostics = diagnostics
    }

    /// The kind of the worst problem so far, nil when there was none: a rejected payload
    /// (`.badData`) before an input that could not be read.
    package var failure: ErrorKind? {
        rejected > 0 ? .badData : unreadable.first
    }

    /// Parses the whole of `input` as one payload.
    package func parse(_ input: InputSource) {
        let bytes: [UInt8]
        do {
            switch input {
            case .standardInput: bytes = try PayloadInput.readDescriptor(0, name: input.sourceName)
            case .file(let path): bytes = try PayloadInput.readFile(path)
            }
        } catch {
            report(error)
            return
        }
        parse(bytes, source: input.sourceName)
    }

    /// Parses each non-blank line of `input` as one payload (sources `<stdin>:3`, `a.ndjson:3`).
    package func parseLines(of input: InputSource) {
        do {
            try PayloadInput.eachLine(of: input) { line in
                switch line {
                case .overlong(let source):
                    rejected += 1
                    tell(TerminalText.safe("\(source): \(PayloadInput.overlongReason())"))
                case .text(let bytes, let source):
                    parse(Array(bytes), source: source)
                }
            }
        } catch {
            report(error)
        }
    }

    private func parse(_ bytes: [UInt8], source: String) {
        var bytes = bytes
        switch EventLinePayload.extract(bytes) {
        case .payload(let payload): bytes = payload
        case .noPayload: return  // an exit or a suppressed enter of `watch --events all`: no notification
        case .notAnEventLine: break
        }
        do {
            let (model, warnings) = try PayloadParser.parse(bytes, source: source, catalog: catalog, strings: strings)
            for warning in warnings { tell("warning: " + TerminalText.safe(warning)) }
            switch format {
            case .json:
                output.writeLine(model.json(source: source))
            case .card:
                if printedCards > 0 { output.writeLine("") }
                for line in NotificationCard.lines(for: model, source: source) { output.writeLine(line) }
                printedCards += 1
            }
        } catch {
            rejected += 1
            tell("error: " + TerminalText.safe(error.description))
        }
    }

    private func report(_ error: InputError) {
        if error.kind == .badData { rejected += 1 } else { unreadable.append(error.kind) }
        tell("error: " + TerminalText.safe(error.description))
    }

    /// Diagnostics go out at once, after what stdout holds so far (the order a reader expects).
    private func tell(_ line: String) {
        try? output.flush()
        diagnostics.writeLine(line)
        try? diagnostics.flush()
    }
}
