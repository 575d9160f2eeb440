import CZlib
import Foundation

/// gzip output written with zlib's deflate, for tests that need gzip inputs no file holds:
/// bombs (gigabytes of zeros in a few kilobytes), members cut short.
final class GzipWriter {
    private var stream = z_stream()
    private(set) var output = Data()

    init(level: Int32 = 9) {
        _ = landmarknear_deflate_init_gzip(&stream, level)
    }

    deinit { deflateEnd(&stream) }

    /// Compresses `bytes`; with `Z_FULL_FLUSH` the output so far no longer refers back, so it
    /// can be repeated to make a longer stream of the same data.
    @discardableResult
    func write(_ bytes: [UInt8], flush: Int32 = Z_NO_FLUSH) -> Data {
        var produced = Data()
        var input = bytes
        input.withUnsafeMutableBufferPointer { buffer in
            stream.next_in = buffer.baseAddress
            stream.avail_in = UInt32(buffer.count)
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            repeat {
                chunk.withUnsafeMutableBufferPointer { out in
                    stream.next_out = out.baseAddress
                    stream.avail_out = UInt32(out.count)
                    _ = deflate(&stream, flush)
                    produced.append(out.baseAddress!, count: out.count - Int(stream.avail_out))
                }
            } while stream.avail_out == 0 || stream.avail_in > 0
        }
        output.append(produced)
        return produced
    }

    /// Ends the stream (the trailer with CRC and length) and returns all output.
    func finish() -> Data {
        write([], flush: Z_FINISH)
        return output
    }

    static func compress(_ data: Data) -> Data {
        let writer = GzipWriter()
        writer.write(Array(data))
        return writer.finish()
    }

    /// A gzip stream that inflates to `gigabytes` GB of zeros: one 64 MiB block of zeros
    /// compressed with a full flush, repeated (its CRC is never reached: readers stop first).
    static func bomb(gigabytes: Int) -> Data {
        let writer = GzipWriter()
        let header = writer.write([UInt8](repeating: 0, count: 1), flush: Z_FULL_FLUSH)
        let block = writer.write([UInt8](repeating: 0, count: 64 << 20), flush: Z_FULL_FLUSH)
        var bomb = header
        for _ in 0..<(gigabytes * 16) { bomb.append(block) }
        bomb.append(writer.write([], flush: Z_FINISH))
        return bomb
    }
}
