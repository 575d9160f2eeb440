import Glibc

/// Lines of a file descriptor as Strings, with a bound on the length of one line, for the
/// commands that read stdin a line at a time (`nearest`): a 500 MB line costs no more memory
/// than the bound, and is reported once.
///
///     let lines = LineReader(descriptor: 0)
///     while let line = try lines.next() {
///         if case .text(let text, let number) = line { print(number, text) }
///     }
package final class LineReader {
    package enum Line: Equatable {
        case text(String, number: Int)
        /// Line `number` was longer than the bound; it is skipped.
        case overlong(number: Int)
    }

    private let stream: LineStream
    package var maximumLineLength: Int { stream.maximumLineLength }

    package init(descriptor: Int32, maximumLineLength: Int = 1 << 20) {
        stream = LineStream(source: DescriptorSource(descriptor: descriptor, ownsDescriptor: false, sourceName: "<stdin>"),
                            maximumLineLength: maximumLineLength)
    }

    package func next() throws(FixInputError) -> Line? {
        switch try stream.nextLine() {
        case nil: return nil
        case .overlong(let number)?: return .overlong(number: number)
        case .text(let bytes, let number)?: return .text(String(decoding: bytes, as: UTF8.self), number: number)
        }
    }

    /// Whether bytes already read wait in the buffer (so more lines are on their way at once).
    package var hasBufferedInput: Bool { !stream.buffered.isEmpty }
}
