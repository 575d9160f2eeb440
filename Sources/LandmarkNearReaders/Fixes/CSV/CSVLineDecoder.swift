@_spi(Inlining) import LandmarkNearCore

/// Decodes a CSV fix file: a header row naming the columns, then one fix a row (docs/reference/fixes.md;
/// GPSLogger for Android's export is one such file).
///
/// Rows are split by `CSVLine.cells`: in place on commas (the usual case, and fast), or
/// through RFC 4180 unquoting when the row has quotes.
final class CSVLineDecoder: LineDecoder {
    private enum State {
        case expectingHeader
        case reading(CSVColumns)
        /// The header had no coordinate columns: reported, and then each data row as unreadable.
        case unusable(line: Int, reason: String)
    }

    private var state = State.expectingHeader
    /// The header line as read, to skip its repeats (files concatenated from several exports).
    private var header: [UInt8] = []
    private let devices = DeviceNames()
    private var lineNumber = 0

    let noFixPrefix = "no CSV row was a fix"

    func noFixExplanation(linesDecoded: Int) -> String? {
        if case .reading = state, linesDecoded == 1 { return "the CSV has a header row and no data rows" }
        return nil
    }

    private var cells: [CSVLine.Bytes] = []
    private let quoted = CSVLine.QuotedCells()

    func decode(_ line: UnsafeBufferPointer<UInt8>, notingZonelessTime: Bool) -> LineOutcome {
        lineNumber += 1
        switch state {
        case .expectingHeader:
            // Column names that are not UTF-8 cannot be fix columns; the others still can.
            switch CSVColumns.read(header: CSVLine.fields(of: String(decoding: line, as: UTF8.self))) {
            case .success(let columns):
                state = .reading(columns)
                header = Array(line)
                return .skip(nil)
            case .failure(let error):
                let reason = CSVLineDecoder.advice(forHeader: line, error.message)
                state = .unusable(line: lineNumber, reason: reason)
                return .unusable(reason)
            }
        case .unusable(_, let reason):
            // Not reached: the source stops reading after an unusable header.
            return .invalid("not read: \(reason)")
        case .reading(let columns):
            if line.count == header.count, line.elementsEqual(header) { return .skip(nil) }
            return decodeRow(line, columns, notingZonelessTime: notingZonelessTime)
        }
    }

    /// What a header without coordinate columns most likely is, and what to do about it: a
    /// first line of numbers is data (the header is missing), a line with semicolons is
    /// another separator; else the columns the reader looks for.
    static func advice(forHeader line: UnsafeBufferPointer<UInt8>, _ message: String) -> String {
        let text = String(decoding: line, as: UTF8.self)
        let fields = CSVLine.fields(of: text)
        let numeric = fields.filter { Double(String(ASCIIBlanks.whitespace.trimming($0))) != nil }.count
        if fields.count >= 2, numeric >= 2 {
            return "\(message); the first line looks like data, not a header: add a header line naming the columns, e.g. lat,lon,time"
        }
        if text.contains(";"), case .success = CSVColumns.read(header: text.split(separator: ";").map(String.init)) {
            return
                "\(message); the columns are separated by ';', and this reads ',' only: convert it (e.g. tr ';' ',', with decimal points)"
        }
        return "\(message); the rest of the input is not read"
    }

    private func decodeRow(_ line: UnsafeBufferPointer<UInt8>, _ columns: CSVColumns, notingZonelessTime: Bool) -> LineOutcome {
        if line.contains(UInt8(ascii: "\"")), String(validating: line, as: UTF8.self) == nil {
            return .invalid("the row is not valid UTF-8")
        }
        CSVLine.cells(of: line, into: &cells, quoted: quoted, maximumCount: columns.lastUsedColumn + 1)
        if cells.count <= columns.coordinateColumns {
            return .invalid("the row has \(cells.count) fields; the header names \(columns.headerCount)")
        }
        var fields = FixFields()
        for column in cells.indices {
            assign(cells[column], column: column, columns, into: &fields)
        }
        return LineOutcome(fields, devices: devices, notingZonelessTime: notingZonelessTime)
    }

    private func assign(_ cell: UnsafeBufferPointer<UInt8>, column: Int, _ columns: CSVColumns, into fields: inout FixFields) {
        let role: FieldRole
        switch column {
        case columns.latitude: role = .latitude
        case columns.longitude: role = .longitude
        case columns.time: role = .time
        case columns.accuracy: role = .accuracy
        case columns.device: role = .device
        case columns.date: role = .date
        default: return
        }
        fields.set(role, rank: 0, .text(ASCIIBlanks.spacesAndTabs.trimming(cell)))
    }
}
