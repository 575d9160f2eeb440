import CZlib
@_spi(Inlining) import LandmarkNearCore

/// Inflates a gzip stream (RFC 1952) as it arrives: the bytes of the compressed `LineStream`
/// go through zlib in chunks, so a `.gz` input of any size runs in bounded memory, and a live
/// gzip pipe delivers each line as soon as zlib can give it. Concatenated members (`cat a.gz
/// b.gz`) are read one after the other, as gzip(1) does.
///
/// Bad data does not throw: the stream ends where it went wrong and `problem` says why, so the
/// reader can report it as one unreadable record after the lines before it. The same happens,
/// on purpose, to a decompression bomb: once more than `bombThreshold` bytes came out, an
/// output over `maximumRatio` times the compressed input read so far stops the stream (deflate
/// cannot exceed about 1032:1; real location logs stay far below 100:1).
final class GzipSource: ByteSource {
    static let bombThreshold = 64 << 20
    static let maximumRatio = 200

    private let compressed: LineStream
    /// zlib's state: allocated once, freed in deinit (the one owner).
    private let stream: UnsafeMutablePointer<z_stream>
    private var input: UnsafeBufferPointer<UInt8>?
    private var memberEnded = false
    private var finished = false
    private(set) var compressedBytesRead = 0
    private(set) var inflatedBytes = 0
    /// Why the stream ended early (corrupt or truncated data, a bomb); nil after a clean end.
    private(set) var problem: String?

    init(compressed: LineStream) {
        self.compressed = compressed
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        _ = landmarknear_inflate_init_gzip(stream)
    }

    deinit {
        inflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    var descriptor: Int32 { compressed.descriptor }
    var sourceName: String { compressed.sourceName }
    var hasBufferedInput: Bool { !(input?.isEmpty ?? true) || !compressed.buffered.isEmpty }

    var hasReadableInput: Bool {
        finished || !(input?.isEmpty ?? true) || compressed.hasPendingInput || !compressed.buffered.isEmpty
    }

    func read(into buffer: UnsafeMutablePointer<UInt8>, capacity: Int) throws(InputError) -> Int {
        while !finished {
            if input == nil || input!.isEmpty {
                guard let chunk = try compressed.nextChunk() else {
                    if !memberEnded {
                        problem = "gzip: the compressed data ends early (a truncated file?)"
                    }
                    finished = true
                    return 0
                }
                input = chunk
                compressedBytesRead += chunk.count
            }
            guard let pending = input else { continue }
            if memberEnded {
                // Another member follows the one that ended (or trailing garbage).
                guard pending.first == 0x1F else {
                    finished = true
                    return 0
                }
                inflateReset(stream)
                memberEnded = false
            }
            stream.pointee.next_in = UnsafeMutablePointer(mutating: pending.baseAddress)
            stream.pointee.avail_in = UInt32(pending.count)
            stream.pointee.next_out = buffer
            stream.pointee.avail_out = UInt32(min(capacity, Int(UInt32.max)))
            let status = inflate(stream, Z_NO_FLUSH)
            let consumed = pending.count - Int(stream.pointee.avail_in)
            input = UnsafeBufferPointer(rebasing: pending[consumed...])
            let produced = min(capacity, Int(UInt32.max)) - Int(stream.pointee.avail_out)
            inflatedBytes += produced
            switch status {
            case Z_OK, Z_BUF_ERROR:
                break
            case Z_STREAM_END:
                memberEnded = true
            default:
                let message = stream.pointee.msg.map { String(cString: $0) } ?? "error \(status)"
                problem = "gzip: the compressed data is corrupt (\(message))"
                finished = true
                return produced
            }
            if inflatedBytes > GzipSource.bombThreshold,
                inflatedBytes / max(compressedBytesRead - (input?.count ?? 0), 1) > GzipSource.maximumRatio
            {
                problem =
                    "gzip: stopped after inflating \(inflatedBytes >> 20) MiB from "
                    + "\(max(compressedBytesRead - (input?.count ?? 0), 1) >> 10) KiB (more than "
                    + "\(GzipSource.maximumRatio):1): a decompression bomb?"
                finished = true
                return produced
            }
            if produced > 0 { return produced }
        }
        return 0
    }
}
