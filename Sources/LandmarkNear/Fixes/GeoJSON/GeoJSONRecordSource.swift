/// Reads GeoJSON documents (RFC 7946; also several one after another, as GeoJSON text
/// sequences and files of one Feature a line have them): each is read whole, up to
/// `maximumDocumentBytes`, and its Point, MultiPoint, LineString and MultiLineString
/// features become fixes through `GeoJSONFixes`.
///
/// A document is one JSON value in any layout (pretty-printed over thousands of lines or on
/// one), so it cannot be read a line at a time; an input over the bound is one error and is
/// not read. Records carry the line where their document starts.
final class GeoJSONRecordSource: FixRecordSource {
    static let maximumDocumentBytes = 256 << 20

    private let stream: LineStream
    private let sourceName: String
    private var bytes: [UInt8] = []
    private var loaded = false
    private var offset = 0
    private var line = 1
    private var pending: [FixRecord] = []
    private var pendingIndex = 0
    private var finished = false
    private var documents = 0
    private var converter = GeoJSONFixes()

    init(stream: LineStream, sourceName: String) {
        self.stream = stream
        self.sourceName = sourceName
    }

    var skipped: SkipTally { converter.skipped }

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
            if !loaded {
                guard try load() else {
                    finished = true
                    continue
                }
            }
            readDocument()
        }
    }

    /// Reads the whole input; false (with an issue pending) when it is over the bound.
    private func load() throws(InputError) -> Bool {
        loaded = true
        // Line numbers count from the first byte the stream still holds.
        line = stream.lineNumber + 1
        while let chunk = try stream.nextChunk() {
            if bytes.count + chunk.count > GeoJSONRecordSource.maximumDocumentBytes {
                pending.append(.invalid(FixReadIssue(source: sourceName, line: line,
                    reason: "GeoJSON: the input is larger than \(GeoJSONRecordSource.maximumDocumentBytes >> 20) MiB; not read (split it, or convert it to NDJSON)")))
                bytes = []
                // Drain the rest so that a pipe's writer is not blocked; none of it is kept.
                while try stream.nextChunk() != nil {}
                return false
            }
            bytes.append(contentsOf: chunk)
        }
        return true
    }

    /// Converts the next document of the input into pending records.
    private func readDocument() {
        let from = offset
        let result = bytes.withUnsafeBufferPointer { buffer -> Result<(value: JSONValue, end: Int)?, JSONParseError> in
            do throws(JSONParseError) {
                return .success(try JSONParser.parseValue(in: buffer, from: from))
            } catch {
                return .failure(error)
            }
        }
        switch result {
        case .success(nil):
            finished = true
        case .success(let (value, end)?):
            var start = offset
            while start < end, [0x20, 0x09, 0x0A, 0x0D, 0x1E].contains(bytes[start]) {
                if bytes[start] == 0x0A { line += 1 }
                start += 1
            }
            documents += 1
            converter.records(from: value, line: line, source: sourceName, into: &pending)
            for index in start..<end where bytes[index] == 0x0A { line += 1 }
            offset = end
        case .failure(let error):
            // The position of the error as line:column; nothing after it can be trusted.
            var errorLine = line
            var column = 1
            for index in offset..<min(error.offset, bytes.count) {
                if bytes[index] == 0x0A { errorLine += 1; column = 1 } else { column += 1 }
            }
            pending.append(.invalid(FixReadIssue(source: sourceName, line: errorLine,
                                                 reason: "GeoJSON: \(error.reason) (column \(column)); the rest is not read")))
            finished = true
        }
    }
}
