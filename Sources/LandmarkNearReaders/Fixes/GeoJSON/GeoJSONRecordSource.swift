@_spi(Inlining) import LandmarkNearCore

/// Reads GeoJSON documents (RFC 7946; also several one after another, as GeoJSON text
/// sequences and files of one Feature a line have them): each document is read as soon as its
/// last byte arrived (`JSONValueBoundary`), up to `maximumDocumentBytes`, and its Point,
/// MultiPoint, LineString and MultiLineString features become fixes through `GeoJSONFixes`.
/// On a live pipe, a document (or each Feature of a stream of them) flows at once.
///
/// A document is one JSON value in any layout (pretty-printed over thousands of lines or on
/// one), so it cannot be read a line at a time; a document over the bound is one error and
/// the rest of the input is not read. Records carry the line where their document starts.
final class GeoJSONRecordSource: FixRecordSource {
    static let maximumDocumentBytes = 256 << 20

    private let stream: LineStream
    private let sourceName: String
    /// Bytes read and not yet consumed: `bytes[start...]`, from the start of a document (or
    /// the white space before it).
    private var bytes: [UInt8] = []
    private var start = 0
    private var boundary = JSONValueBoundary()
    /// Whether `bytes[start]` is the first byte of the document (white space skipped).
    private var atDocument = false
    private var inputEnded = false
    private var checkedByteOrderMark = false
    /// The line of `bytes[start]`.
    private var line = 1
    private var pending: [FixRecord] = []
    private var pendingIndex = 0
    private var finished = false
    private var documents = 0
    private var converter = GeoJSONFixes()

    package init(stream: LineStream, sourceName: String) {
        self.stream = stream
        self.sourceName = sourceName
        // Line numbers count from the first byte the stream still holds.
        line = stream.lineNumber + 1
    }

    var skipped: SkipTally { converter.skipped }
    var zonelessTime: ZonelessTime? { converter.zonelessTime }

    func noFixExplanation() -> String? {
        guard documents > 0 else { return stream.bytesRead > 0 ? NothingReadExplanation.whiteSpace : nil }
        if !converter.skipped.isEmpty { return "no GeoJSON feature had a point or line: \(converter.skipped)" }
        return "the GeoJSON has no Point, MultiPoint, LineString or MultiLineString coordinates"
    }

    func next() throws(InputError) -> FixRecord? {
        while true {
            if pendingIndex < pending.count {
                pendingIndex += 1
                return pending[pendingIndex - 1]
            }
            pending.removeAll(keepingCapacity: true)
            pendingIndex = 0
            if finished { return nil }
            if !atDocument { skipWhiteSpace() }
            if atDocument {
                let end = bytes.withUnsafeBufferPointer { buffer in
                    boundary.end(in: UnsafeBufferPointer(rebasing: buffer[start...]))
                }
                if let end {
                    readDocument(length: end)
                    continue
                }
                if inputEnded {
                    // A number at the very end, or a document cut short (the parser says so).
                    readDocument(length: bytes.count - start)
                    continue
                }
            } else if inputEnded {
                finished = true
                continue
            }
            try readMore()
        }
    }

    /// Appends the next chunk of input (dropping what was consumed), or notes its end; a
    /// document over the bound is one issue, and the rest of the input is drained unread.
    private func readMore() throws(InputError) {
        guard let chunk = try stream.nextChunk() else {
            inputEnded = true
            return
        }
        if start > 0 {
            bytes.removeSubrange(0..<start)
            start = 0
        }
        if bytes.count + chunk.count > GeoJSONRecordSource.maximumDocumentBytes {
            pending.append(
                .invalid(
                    FixReadIssue(
                        source: sourceName, line: line,
                        reason:
                            "GeoJSON: a document larger than \(GeoJSONRecordSource.maximumDocumentBytes >> 20) MiB; it and the rest of the input are not read (split it, or convert it to NDJSON)"
                    )))
            bytes = []
            // Drain the rest so that a pipe's writer is not blocked; none of it is kept.
            while try stream.nextChunk() != nil {}
            finished = true
            return
        }
        bytes.append(contentsOf: chunk)
    }

    /// Skips white space and RFC 7464 record separators (and a byte-order mark at the very
    /// start) up to the next document, counting lines.
    private func skipWhiteSpace() {
        if !checkedByteOrderMark {
            guard bytes.count - start >= 3 || inputEnded else { return }
            checkedByteOrderMark = true
            if bytes.count - start >= 3, bytes[start] == 0xEF, bytes[start + 1] == 0xBB, bytes[start + 2] == 0xBF { start += 3 }
        }
        while start < bytes.count {
            switch bytes[start] {
            case 0x0A: line += 1
            case 0x20, 0x09, 0x0D, 0x1E: break
            default:
                atDocument = true
                return
            }
            start += 1
        }
    }

    /// Parses the document of `length` bytes at `start` into pending records, and moves past it.
    private func readDocument(length: Int) {
        let from = start
        let result = bytes.withUnsafeBufferPointer { buffer -> Result<(value: JSONValue, end: Int)?, JSONParseError> in
            let document = UnsafeBufferPointer(rebasing: buffer[from..<(from + length)])
            do throws(JSONParseError) {
                return .success(try JSONParser.parseValue(in: document, from: 0))
            } catch {
                return .failure(error)
            }
        }
        switch result {
        case .success(nil):
            finished = true
        case .success(let (value, end)?):
            documents += 1
            converter.records(from: value, line: line, source: sourceName, into: &pending)
            for index in from..<(from + end) where bytes[index] == 0x0A { line += 1 }
            start = from + end
            atDocument = false
            boundary.reset()
        case .failure(let error):
            // The position of the error as line:column; nothing after it can be trusted.
            var errorLine = line
            var column = 1
            for index in from..<min(from + error.offset, bytes.count) {
                if bytes[index] == 0x0A { errorLine += 1; column = 1 } else { column += 1 }
            }
            pending.append(
                .invalid(
                    FixReadIssue(
                        source: sourceName, line: errorLine,
                        reason: "GeoJSON: \(error.reason) (column \(column)); the rest is not read")))
            finished = true
        }
    }
}
