import CLibXML2
import Foundation

/// Reads GPX 1.0 and 1.1 `trkpt`, `rtept` and `wpt` elements (any namespace or none) with
/// libxml2's push parser: the input is fed in chunks as it is read and SAX callbacks build
/// only the current point, so a GPX of any size runs in bounded memory.
///
/// Every point is a fix of device `default` (the SPEC names no other; track names are not
/// used). XML errors become invalid records with libxml2's message and line; libxml2's
/// recovery mode goes on after them where it can (a stray byte that is not UTF-8, a
/// mismatched end tag), so the points after an error are kept too. A truncated document
/// gives an error at its end, after all its points. One issue is reported a line, and reading
/// stops after 100 XML errors.
final class GPXRecordSource: FixRecordSource {
    private let stream: LineStream
    private let state: GPXParseState
    private var context: xmlParserCtxtPtr?
    private var handler = xmlSAXHandler()
    private var pendingIndex = 0
    private var finished = false

    /// libxml2's global state, set up once before the first parser.
    private static let libraryReady: Bool = {
        xmlInitParser()
        return true
    }()

    init(stream: LineStream, sourceName: String) {
        _ = GPXRecordSource.libraryReady
        self.stream = stream
        state = GPXParseState(sourceName: sourceName)
        handler.initialized = XML_SAX2_MAGIC
        handler.startElementNs = gpxStartElement
        handler.endElementNs = gpxEndElement
        handler.characters = gpxCharacters
        handler.cdataBlock = gpxCharacters
        handler.serror = gpxStructuredError
    }

    deinit {
        if let context { xmlFreeParserCtxt(context) }
    }

    func next() throws(InputError) -> FixRecord? {
        while true {
            if pendingIndex < state.records.count {
                let record = state.records[pendingIndex]
                pendingIndex += 1
                return record
            }
            state.records.removeAll(keepingCapacity: true)
            pendingIndex = 0
            if finished { return nil }
            try feed()
        }
    }

    /// Feeds the next chunk of input to the parser (or ends the document at end of input).
    private func feed() throws(InputError) {
        if context == nil {
            try skipLeadingWhitespace()
            if stream.buffered.isEmpty && stream.reachedEnd {
                // An empty input holds no points, and is not an error (as in the other formats).
                finished = true
                return
            }
            let userData = Unmanaged.passUnretained(state).toOpaque()
            guard let created = xmlCreatePushParserCtxt(&handler, userData, nil, 0, state.sourceName) else {
                state.records.append(.invalid(FixReadIssue(source: state.sourceName, line: 1, reason: "GPX: cannot create an XML parser")))
                finished = true
                return
            }
            let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOWARNING.rawValue | XML_PARSE_BIG_LINES.rawValue | XML_PARSE_RECOVER.rawValue)
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
            xmlParseChunk(context, nil, 0, 1)
            finished = true
        }
        if state.failed { finished = true }
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
final class GPXParseState {
    let sourceName: String
    var context: xmlParserCtxtPtr?
    var records: [FixRecord] = []
    var lineOffset = 0
    var depth = 0
    var point: GPXPoint?
    var pointDepth = 0
    var inTime = false
    var failed = false
    var errorCount = 0
    var lastErrorLine = 0
    static let maximumErrors = 100
    /// Set when the end of input is signalled, where libxml2 words an unclosed document as
    /// "Extra content at the end of the document".
    var terminating = false

    init(sourceName: String) {
        self.sourceName = sourceName
    }

    var currentLine: Int {
        guard let context else { return 0 }
        return Int(xmlSAX2GetLineNumber(context)) + lineOffset
    }

    func issue(line: Int, _ reason: String) {
        records.append(.invalid(FixReadIssue(source: sourceName, line: line, reason: reason)))
    }
}

private func state(_ pointer: UnsafeMutableRawPointer?) -> GPXParseState {
    Unmanaged<GPXParseState>.fromOpaque(pointer!).takeUnretainedValue()
}

private func equals(_ name: UnsafePointer<xmlChar>?, _ literal: StaticString) -> Bool {
    guard let name else { return false }
    return strcmp(UnsafeRawPointer(name).assumingMemoryBound(to: CChar.self),
                  UnsafeRawPointer(literal.utf8Start).assumingMemoryBound(to: CChar.self)) == 0
}

private let gpxStartElement: startElementNsSAX2Func = { userData, localname, _, _, _, _, attributeCount, _, attributes in
    let state = state(userData)
    guard !state.failed else { return }
    state.depth += 1
    if state.point == nil {
        let element: String
        if equals(localname, "trkpt") { element = "trkpt" }
        else if equals(localname, "rtept") { element = "rtept" }
        else if equals(localname, "wpt") { element = "wpt" }
        else { return }
        var point = GPXPoint(element: element, line: state.currentLine)
        if let attributes {
            // Five pointers an attribute: localname, prefix, URI, value start, value end.
            for index in 0..<Int(attributeCount) {
                let base = index * 5
                guard attributes[base + 1] == nil, let start = attributes[base + 3], let end = attributes[base + 4] else { continue }
                let value = Array(UnsafeBufferPointer(start: start, count: end - start))
                if equals(attributes[base], "lat") { point.latitude = value }
                else if equals(attributes[base], "lon") { point.longitude = value }
            }
        }
        state.point = point
        state.pointDepth = state.depth
    } else if state.depth == state.pointDepth + 1, equals(localname, "time") {
        state.inTime = true
        state.point?.hasTime = true
        state.point?.time.removeAll(keepingCapacity: true)
    }
}

private let gpxEndElement: endElementNsSAX2Func = { userData, _, _, _ in
    let state = state(userData)
    defer { state.depth -= 1 }
    guard let point = state.point else { return }
    if state.depth == state.pointDepth + 1 {
        state.inTime = false
    } else if state.depth == state.pointDepth {
        state.point = nil
        state.inTime = false
        switch point.fix() {
        case .fix(let fix): state.records.append(.fix(fix, line: point.line))
        case .invalid(let reason): state.issue(line: point.line, reason)
        }
    }
}

private let gpxCharacters: charactersSAXFunc = { userData, characters, length in
    let state = state(userData)
    guard state.inTime, let characters, var point = state.point else { return }
    let room = GPXPoint.maximumTimeLength + 1 - point.time.count
    guard room > 0 else { return }
    state.point = nil
    point.time.append(contentsOf: UnsafeBufferPointer(start: characters, count: min(Int(length), room)))
    state.point = point
}

private let gpxStructuredError: xmlStructuredErrorFunc = { userData, error in
    guard let error, let userData else { return }
    let state = state(userData)
    let level = error.pointee.level
    guard level == XML_ERR_FATAL || level == XML_ERR_ERROR, !state.failed else { return }
    let line = error.pointee.line > 0 ? Int(error.pointee.line) + state.lineOffset : state.currentLine
    // One issue a line: recovering from one error often raises a few more at the same place.
    guard line != state.lastErrorLine else { return }
    state.lastErrorLine = line
    state.errorCount += 1
    guard state.errorCount <= GPXParseState.maximumErrors else {
        state.issue(line: state.currentLine, "GPX: more than \(GPXParseState.maximumErrors) XML errors; the rest is not read")
        state.failed = true
        if let context = state.context { xmlStopParser(context) }
        return
    }
    let text = error.pointee.message.map { String(cString: $0) } ?? "malformed XML"
    var message = text.split(whereSeparator: \.isNewline).map { ASCIIBlanks.spacesAndTabs.trimming($0) }
        .filter { !$0.isEmpty }.joined(separator: "; ")
    if state.terminating, error.pointee.code == Int32(XML_ERR_DOCUMENT_END.rawValue) {
        message = "the document ends before its elements are closed (a truncated file?)"
    }
    state.issue(line: line, "GPX: \(message)")
}
