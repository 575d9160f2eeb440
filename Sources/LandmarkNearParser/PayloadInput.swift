@_spi(Inlining) import LandmarkNearCore
import LandmarkNearOutputs

/// Reads payload files and stdin for the parser, with its size cap, so a 10 MB or endless
/// input is refused without being held in memory.
///
///     let bytes = try PayloadInput.readFile("a.apns")
///     let stdin = try PayloadInput.readDescriptor(0, name: "<stdin>")
package enum PayloadInput {
    /// Reads the whole file: `.missingInput` when it cannot be opened (missing, a directory,
    /// not readable), `.badData` past `limit`.
    package static func readFile(_ path: String, limit: Int = PayloadParser.maximumInputBytes) throws(InputError) -> [UInt8] {
        try InputFile.read(path: path, limit: limit, tooLarge: tooLarge(limit))
    }

    /// Reads a descriptor to its end (stdin: `0`), refusing more than `limit` bytes.
    package static func readDescriptor(_ fd: Int32, name: String, limit: Int = PayloadParser.maximumInputBytes) throws(InputError)
        -> [UInt8]
    {
        try InputFile.read(descriptor: fd, source: name, limit: limit, tooLarge: tooLarge(limit))
    }

    /// One line of a payload stream (`--ndjson`): its bytes and its source (`a.ndjson:3`), or a
    /// line over the size cap, which is never held in memory.
    package enum Line {
        case text(ArraySlice<UInt8>, source: String)
        case overlong(source: String)
    }

    /// Calls `body` for each non-blank line of `input`, in order. Throws when the input cannot
    /// be opened or read; the lines before that were handed on.
    package static func eachLine(
        of input: InputSource, limit: Int = PayloadParser.maximumInputBytes,
        _ body: (Line) -> Void
    ) throws(InputError) {
        let lines: LineStream
        switch input {
        case .standardInput:
            lines = LineStream(descriptor: 0, ownsDescriptor: false, sourceName: input.sourceName, maximumLineLength: limit)
        case .file(let path):
            lines = LineStream(descriptor: try InputFile.open(path), ownsDescriptor: true, sourceName: path, maximumLineLength: limit)
        }
        while let line = try lines.nextLine() {
            switch line {
            case .overlong(let number):
                body(.overlong(source: "\(input.sourceName):\(number)"))
            case .text(let bytes, let number):
                if ASCIIBlanks.whitespace.isBlank(bytes) { continue }
                body(.text(ArraySlice(bytes), source: "\(input.sourceName):\(number)"))
            }
        }
    }

    /// Why an overlong line is refused.
    package static func overlongReason(limit: Int = PayloadParser.maximumInputBytes) -> String {
        "a line longer than \(limit) bytes, far too large for a notification payload"
    }

    private static func tooLarge(_ limit: Int) -> String {
        "far too large for a notification payload (APNs allows \(APNsPayload.maximumBytes) bytes; inputs over \(limit) bytes are refused)"
    }
}
