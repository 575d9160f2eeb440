import CLibXML2
import Foundation
@_spi(Inlining) import LandmarkNearCore

/// Reads the XML track formats — GPX 1.0/1.1, KML 2.2 and TCX — with libxml2's push parser:
/// the input is fed in chunks as it is read and SAX callbacks hand each element to the
/// vocabulary its root element chose (`gpx`, `kml`, `TrainingCenterDatabase`), which keeps
/// only the point being read, so a document of any size runs in bounded memory.
///
/// Another root element is one error naming it, and nothing more is read. XML errors become
/// invalid records with libxml2's message and line; libxml2's recovery mode goes on after them
/// where it can (a stray byte that is not UTF-8, a mismatched end tag), so the points after an
/// error are kept too. A truncated document gives an error at its end, after all its points.
/// One issue is reported a line, and reading stops after 100 XML errors. `XML_PARSE_HUGE`
/// lifts libxml2's 10 MB limit on one text or attribute, which would otherwise stop the whole
/// document at such a value: the point that holds it is reported and the rest is read.
/// Entities are never expanded and nothing is loaded from the network.
final class XMLRecordSource: FixRecordSource {
    private let stream: LineStream
    private let state: XMLParseState
    private var context: xmlParserCtxtPtr?
    private var handler = xmlSAXHandler()
    private var pendingIndex = 0
    private var finished = false
    /// The input held white space (or a byte-order mark) and nothing else.
    private var heldOnlyWhiteSpace = false

    /// libxml2's global state, set up once before the first parser.
    private static let libraryReady: Bool = {
        xmlInitParser()
        return true
    }()

    /// `expected`: the format `--format` forced (its root element is then required), or nil.
    init(stream: LineStream, sourceName: String, expected: FixFormat?) {
        _ = XMLRecordSource.libraryReady
        self.stream = stream
        state = XMLParseState(sourceName: sourceName, expected: expected)
        handler.initialized = XML_SAX2_MAGIC
        handler.startElementNs = xmlStartElement
        handler.endElementNs = xmlEndElement
        handler.characters = xmlCharacters
        handler.cdataBlock = xmlCharacters
        handler.serror = xmlStructuredError
    }

    deinit {
        guard let context else { return }
        // A DOCTYPE with entity declarations makes libxml2 build a document even in SAX mode
        // ("expat compatibility"); it belongs to the caller, not to the context
        // (AddressSanitizer's leak check found it).
        if let document = context.pointee.myDoc { xmlFreeDoc(document) }
        xmlFreeParserCtxt(context)
    }

    /// The format the root element named, once it has been read (nil before, or for another root).
    var format: FixFormat? { state.format }

    /// Feeds input until the root element is known (or the input ends), so that the reader can
    /// tell which format it is reading before the first record is asked for.
    func readRootElement() throws(InputError) {
        while state.format == nil, !state.sawRoot, !finished {
            try feed()
        }
    }

    func next() throws(InputError) -> FixRecord? {
        while true {
            if pendingIndex < state.sink.records.count {
                let record = state.sink.records[pendingIndex]
                pendingIndex += 1
                return record
            }
            state.sink.records.removeAll(keepingCapacity: true)
            pendingIndex = 0
            if finished { return nil }
            try feed()
        }
    }

    var skipped: SkipTally { state.vocabulary?.skipped ?? SkipTally() }
    var zonelessTime: ZonelessTime? { state.sink.zonelessTime }

    func noFixExplanation() -> String? {
        if heldOnlyWhiteSpace { return NothingReadExplanation.whiteSpace }
        guard state.sawRoot else { return nil }
        if let vocabulary = state.vocabulary { return vocabulary.noFixExplanation() }
        return nil
    }

    /// Feeds the next chunk of input to the parser (or ends the document at end of input).
    private func feed() throws(InputError) {
        if context == nil {
            try skipLeadingWhitespace()
            if stream.buffered.isEmpty && stream.reachedEnd {
                // An empty input holds no points, and is not an error (as in the other formats).
                heldOnlyWhiteSpace = stream.bytesRead > 0
                finished = true
                return
            }
            let userData = Unmanaged.passUnretained(state).toOpaque()
            guard let created = xmlCreatePushParserCtxt(&handler, userData, nil, 0, state.sourceName) else {
                state.sink.issue(line: 1, "XML: cannot create an XML parser")
                finished = true
                return
            }
            let options = Int32(
                XML_PARSE_NONET.rawValue | XML_PARSE_NOWARNING.rawValue | XML_PARSE_BIG_LINES.rawValue
                    | XML_PARSE_RECOVER.rawValue | XML_PARSE_HUGE.rawValue)
            xmlCtxtUseOptions(created, options)
            context = created
            state.context = created
        }
        guard let context else { return }
        if let chunk = try stream.nextChunk() {
            var offset = 0
            // xmlParseChunk takes an Int32 size; chunks are 64 KiB or a little more in practice.
            while offset < chunk.count, !state.failed {
                let size = min(chunk.count - offset, 1 << 20)
                let bytes = UnsafeRawPointer(chunk.baseAddress! + offset).assumingMemoryBound(to: CChar.self)
                xmlParseChunk(context, bytes, Int32(size), 0)
                offset += size
                // libxml2 stops for good on errors it cannot recover from.
                if context.pointee.disableSAX != 0 { state.failed = true }
            }
        } else {
            state.terminating = true
            // What a KML held back comes before the error of a document cut short.
            state.vocabulary?.finish(into: &state.sink)
            xmlParseChunk(context, nil, 0, 1)
            finished = true
        }
        if state.failed { finished = true }
        // A truncated document, or one stopped by its errors: what was held back is read.
        if finished { state.vocabulary?.finish(into: &state.sink) }
    }

    /// Skips a byte-order mark and blank lines before the XML declaration, which libxml2
    /// would refuse; line numbers stay those of the file.
    private func skipLeadingWhitespace() throws(InputError) {
        var atStart = true
        while true {
            let buffered = stream.buffered
            if atStart && ByteOrderMark.mayBegin(buffered) && !stream.reachedEnd {
                try stream.readMore()
                continue
            }
            var index = atStart ? ByteOrderMark.length(of: buffered) : 0
            atStart = false
            while index < buffered.count, ASCIIBlanks.whitespace.contains(buffered[index]) { index += 1 }
            stream.discard(index)
            state.lineOffset = stream.lineNumber
            if !stream.buffered.isEmpty || stream.reachedEnd { return }
            try stream.readMore()
        }
    }
}

/// What the SAX callbacks share, passed to them through libxml2's user-data pointer (C
/// callbacks cannot capture context).
final class XMLParseState {
    let sourceName: String
    let expected: FixFormat?
    var context: xmlParserCtxtPtr?
    var sink: XMLRecordSink
    var vocabulary: (any XMLVocabulary)?
    var format: FixFormat?
    var sawRoot = false
    var lineOffset = 0
    var depth = 0
    var failed = false
    var errorCount = 0
    var lastErrorLine = 0
    static let maximumErrors = 100
    /// Set when the end of input is signalled, where libxml2 words an unclosed document as
    /// "Extra content at the end of the document".
    var terminating = false

    init(sourceName: String, expected: FixFormat?) {
        self.sourceName = sourceName
        self.expected = expected
        sink = XMLRecordSink(sourceName: sourceName)
    }

    var currentLine: Int {
        guard let context else { return 0 }
        return Int(xmlSAX2GetLineNumber(context)) + lineOffset
    }

    /// The label of messages: the format once known.
    var label: String {
        if let vocabulary { return type(of: vocabulary).label }
        return expected?.rawValue.uppercased() ?? "XML"
    }

    /// Chooses the vocabulary from the root element, or stops with one error naming it.
    func root(_ name: XMLName, line: Int) {
        sawRoot = true
        let found: (FixFormat, any XMLVocabulary)?
        if name.equals("gpx") {
            found = (.gpx, GPXVocabulary())
        } else if name.equals("kml") {
            found = (.kml, KMLVocabulary())
        } else if name.equals("TrainingCenterDatabase") {
            found = (.tcx, TCXVocabulary())
        } else {
            found = nil
        }
        let shown = String(name.text.prefix(64))
        guard let (format, vocabulary) = found else {
            let wanted =
                expected.map { "the root element of \($0.rawValue.uppercased()) (--format \($0.rawValue))" }
                ?? "gpx, kml or TrainingCenterDatabase (GPX, KML, TCX)"
            stop(line: line, "XML root element <\(shown)> is not \(wanted); nothing is read")
            return
        }
        if let expected, expected != format {
            stop(
                line: line,
                "XML root element <\(shown)> is \(format.rawValue.uppercased()), not \(expected.rawValue.uppercased()) (--format \(expected.rawValue)); nothing is read"
            )
            return
        }
        self.format = format
        self.vocabulary = vocabulary
    }

    func stop(line: Int, _ reason: String) {
        sink.issue(line: line, reason)
        failed = true
        if let context { xmlStopParser(context) }
    }
}

private func state(_ pointer: UnsafeMutableRawPointer?) -> XMLParseState {
    Unmanaged<XMLParseState>.fromOpaque(pointer!).takeUnretainedValue()
}

private let xmlStartElement: startElementNsSAX2Func = { userData, localname, _, _, _, _, attributeCount, _, attributes in
    let state = state(userData)
    guard !state.failed, let localname else { return }
    state.depth += 1
    let name = XMLName(localname)
    if state.depth == 1 {
        state.root(name, line: state.currentLine)
        return
    }
    guard state.vocabulary != nil else { return }
    let start = XMLElementStart(
        localName: name, depth: state.depth, line: state.currentLine,
        attributes: attributes, attributeCount: Int(attributeCount))
    state.vocabulary!.start(start, into: &state.sink)
}

private let xmlEndElement: endElementNsSAX2Func = { userData, localname, _, _ in
    let state = state(userData)
    defer { state.depth -= 1 }
    guard !state.failed, let localname, state.vocabulary != nil else { return }
    state.vocabulary!.end(XMLName(localname), depth: state.depth, into: &state.sink)
}

private let xmlCharacters: charactersSAXFunc = { userData, characters, length in
    let state = state(userData)
    guard !state.failed, let characters, state.vocabulary?.wantsText == true else { return }
    state.vocabulary!.characters(UnsafeBufferPointer(start: characters, count: Int(length)), into: &state.sink)
}

private let xmlStructuredError: xmlStructuredErrorFunc = { userData, error in
    guard let error, let userData else { return }
    let state = state(userData)
    let level = error.pointee.level
    guard level == XML_ERR_FATAL || level == XML_ERR_ERROR, !state.failed else { return }
    let line = error.pointee.line > 0 ? Int(error.pointee.line) + state.lineOffset : state.currentLine
    // One issue a line: recovering from one error often raises a few more at the same place.
    guard line != state.lastErrorLine else { return }
    state.lastErrorLine = line
    state.errorCount += 1
    guard state.errorCount <= XMLParseState.maximumErrors else {
        state.stop(line: state.currentLine, "\(state.label): more than \(XMLParseState.maximumErrors) XML errors; the rest is not read")
        return
    }
    let text = error.pointee.message.map { String(cString: $0) } ?? "malformed XML"
    var message = text.split(whereSeparator: \.isNewline).map { ASCIIBlanks.spacesAndTabs.trimming($0) }
        .filter { !$0.isEmpty }.joined(separator: "; ")
    if state.terminating, error.pointee.code == Int32(XML_ERR_DOCUMENT_END.rawValue) {
        message = "the document ends before its elements are closed (a truncated file?)"
    }
    state.sink.issue(line: line, "\(state.label): \(message)")
}
