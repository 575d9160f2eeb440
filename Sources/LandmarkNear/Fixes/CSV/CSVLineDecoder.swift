/// Decodes a CSV fix file: a header row naming the columns, then one fix a row (SPEC §3;
/// GPSLogger for Android's export is one such file).
///
/// Rows without a double quote are split on commas in place (the usual case, and fast); rows
/// with quotes go through `CSVLine.fields`, which knows RFC 4180 quoting.
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

    func decode(_ line: UnsafeBufferPointer<UInt8>) -> LineOutcome {
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
                state = .unusable(line: lineNumber, reason: error.message)
                return .invalid(error.message)
            }
        case .unusable(_, let reason):
            // Each row is reported and counted: none of them can be read.
            return .invalid("not read: \(reason)")
        case .reading(let columns):
            if line.count == header.count, line.elementsEqual(header) { return .skip(nil) }
            if line.contains(UInt8(ascii: "\"")) { return decodeQuoted(line, columns) }
            return decodeRow(line, columns)
        }
    }

    private func decodeRow(_ line: UnsafeBufferPointer<UInt8>, _ columns: CSVColumns) -> LineOutcome {
        var fields = FixFields()
        var column = 0
        var lower = 0
        let last = columns.lastUsedColumn
        while column <= last {
            var upper = lower
            while upper < line.count, line[upper] != UInt8(ascii: ",") { upper += 1 }
            assign(UnsafeBufferPointer(rebasing: line[lower..<upper]), column: column, columns, into: &fields)
            column += 1
            if upper >= line.count { break }
            lower = upper + 1
        }
        if column <= columns.coordinateColumns {
            return .invalid("the row has \(column) fields; the header names \(columns.headerCount)")
        }
        return LineOutcome(fields.interpret(devices: devices))
    }

    private func decodeQuoted(_ line: UnsafeBufferPointer<UInt8>, _ columns: CSVColumns) -> LineOutcome {
        guard let text = String(validating: line, as: UTF8.self) else { return .invalid("the row is not valid UTF-8") }
        let cells = CSVLine.fields(of: text)
        if cells.count <= columns.coordinateColumns {
            return .invalid("the row has \(cells.count) fields; the header names \(columns.headerCount)")
        }
        var arena: [UInt8] = []
        var ranges: [Range<Int>] = []
        for cell in cells.prefix(columns.lastUsedColumn + 1) {
            let lower = arena.count
            arena.append(contentsOf: cell.utf8)
            ranges.append(lower..<arena.count)
        }
        return arena.withUnsafeBufferPointer { buffer in
            var fields = FixFields()
            for (column, range) in ranges.enumerated() {
                assign(UnsafeBufferPointer(rebasing: buffer[range]), column: column, columns, into: &fields)
            }
            return LineOutcome(fields.interpret(devices: devices))
        }
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
        var lower = 0
        var upper = cell.count
        while lower < upper, cell[lower] == 0x20 || cell[lower] == 0x09 { lower += 1 }
        while upper > lower, cell[upper - 1] == 0x20 || cell[upper - 1] == 0x09 { upper -= 1 }
        fields.set(role, rank: 0, .text(UnsafeBufferPointer(rebasing: cell[lower..<upper])))
    }
}
