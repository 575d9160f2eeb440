import Foundation
import Testing

@_spi(Inlining) @testable import LandmarkNearCore

/// The buffered writer behind stdout: every way of writing lands in order, byte for byte,
/// whether it fits the buffer, fills it (a flush on the way) or is larger than it (the block
/// grows), and lines written in place take only the bytes they wrote.
@Suite(.suiteTimeLimit)
struct OutputWriterTests {
    @Test(arguments: [1, 7, 64, 1 << 16])
    func everyWriteLandsInOrder(_ capacity: Int) throws {
        let directory = try makeTemporaryDirectory("output-writer")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("out").path
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        try #require(descriptor >= 0)
        var expected: [UInt8] = []
        do {
            let writer = OutputWriter(descriptor: descriptor, capacity: capacity)
            var generator = SplitMix64(seed: 7)
            for round in 0..<2_000 {
                let length = Int(generator.next() % (round % 100 == 0 ? 5_000 : 90))
                let text = String((0..<length).map { _ in Character(UnicodeScalar(UInt8(0x61 + generator.next() % 26))) })
                switch round % 5 {
                case 0:
                    writer.write(text)
                    expected += Array(text.utf8)
                case 1:
                    writer.writeLine(text)
                    expected += Array(text.utf8) + [0x0A]
                case 2:
                    writer.write(bytes: Array(text.utf8))
                    expected += Array(text.utf8)
                case 3:
                    // Not contiguous: written byte by byte.
                    writer.write(bytes: text.utf8.lazy.map { $0 })
                    expected += Array(text.utf8)
                default:
                    // Asks for more room than it writes.
                    let bytes = Array(text.utf8)
                    writer.writeLine(maximumBytes: bytes.count + 300) { start in
                        start.initialize(from: bytes, count: bytes.count)
                        return bytes.count
                    }
                    expected += bytes + [0x0A]
                }
                // A write that fills the buffer flushes it.
                if round % 97 == 0 { #expect(writer.pendingByteCount < capacity) }
            }
            try writer.flush()
            #expect(writer.pendingByteCount == 0)
        }
        close(descriptor)
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: path))) == expected)
    }
}
