/// `landmark-near nearest` over a stream of `lat,lon` lines (SPEC §8): each line answered
/// with `NearestAnswerWriter`, the answers written in one `write(2)` per batch, a batch
/// ending whenever no further line is waiting (so a live producer sees each answer at once,
/// and a file or a fast pipe is answered in writes of 64 KiB). Lines are read as bytes (`QueryLine`,
/// falling back to `QueryPoint(line:)` for what it does not settle), at most 1 MiB long
/// like watch's. A first line that names the columns (`lat,lon`, `Latitude,Longitude`,
/// `lon,lat`: `QueryHeader`) is a header: skipped, and its order used for the other lines.
///
///     let bad = try NearestStream.run(descriptor: 0, writer: writer, output: OutputWriter()) { line, reason in
///         print("<stdin>:\(line): \(reason)")
///     }
package enum NearestStream {
    /// Answers every line of `descriptor`; returns how many lines could not be read (each
    /// reported through `problem` with its 1-based line number, after the answers before it
    /// were written out).
    package static func run(
        descriptor: Int32, writer: NearestAnswerWriter, output: OutputWriter,
        problem: (Int, String) -> Void
    ) throws(NearestStreamError) -> Int {
        let lines = LineStream(descriptor: descriptor, ownsDescriptor: false, sourceName: "<stdin>")
        var badLines = 0
        var pastFirstLine = false
        var order = QueryPoint.Order.latitudeFirst
        func writeOut() throws(NearestStreamError) {
            if !writer.bytes.isEmpty {
                output.write(bytes: writer.bytes)
                writer.bytes.removeAll(keepingCapacity: true)
            }
            do { try output.flush() } catch { throw .output(error) }
        }
        while true {
            if writer.bytes.count >= 1 << 16 || (!writer.bytes.isEmpty && !lines.hasPendingInput) { try writeOut() }
            let line: LineStream.Line?
            do { line = try lines.nextLine() } catch { throw .input(error) }
            guard let line else { break }
            switch line {
            case .overlong(let number):
                badLines += 1
                try writeOut()
                problem(number, "line longer than \(lines.maximumLineLength) bytes; skipped")
            case .text(let bytes, let number):
                let outcome = QueryLine.scan(bytes, order: order)
                if case .skip = outcome { continue }
                if !pastFirstLine {
                    // A first line naming the columns (`lat,lon`, `"Longitude","Latitude"`) is a
                    // header: skipped, and its order kept for the lines after it.
                    pastFirstLine = true
                    if case .undecided = outcome, let named = QueryHeader.order(of: bytes) {
                        order = named
                        continue
                    }
                }
                switch outcome {
                case .skip:
                    continue
                case .point(let coordinate, let latitude, let longitude):
                    writer.answer(
                        coordinate, latitude: UnsafeBufferPointer(rebasing: bytes[latitude]),
                        longitude: UnsafeBufferPointer(rebasing: bytes[longitude]))
                case .undecided:
                    do {
                        guard let point = try QueryPoint(line: String(decoding: bytes, as: UTF8.self), order: order) else { continue }
                        writer.answer(point.coordinate, latitude: point.latitudeText, longitude: point.longitudeText)
                    } catch {
                        badLines += 1
                        try writeOut()
                        problem(number, error.description)
                    }
                }
            }
        }
        try writeOut()
        return badLines
    }
}

/// Why `NearestStream.run` stopped: stdin could not be read, or stdout written.
package enum NearestStreamError: LandmarkNearError {
    case input(InputError)
    case output(OutputError)

    package var kind: ErrorKind {
        switch self {
        case .input(let error): return error.kind
        case .output(let error): return error.kind
        }
    }

    package var description: String {
        switch self {
        case .input(let error): return "\(error)"
        case .output(let error): return "stdout: \(error)"
        }
    }
}
