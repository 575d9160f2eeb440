#if canImport(Glibc)
import Glibc
#endif

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A buffered file writer with fast fixed-point number formatting (Foundation's
/// `String(format:)` would dominate the generators' run time). Writes to `path.tmp` and
/// renames it over `path` on `close()`, so a half-written file never has the final name.
final class ByteWriter {
    let path: String
    private let temporaryPath: String
    private let fd: Int32
    private var buffer: [UInt8] = []
    private(set) var bytesWritten = 0

    init(path: String) throws(BenchError) {
        self.path = path
        temporaryPath = path + ".tmp"
        fd = open(temporaryPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw BenchError("cannot create \(temporaryPath): \(String(cString: strerror(errno)))") }
        buffer.reserveCapacity(1 << 20)
    }

    func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        flushIfFull()
    }

    func write(_ text: StaticString) {
        text.withUTF8Buffer { buffer.append(contentsOf: $0) }
        flushIfFull()
    }

    func write(bytes: [UInt8]) {
        buffer.append(contentsOf: bytes)
        flushIfFull()
    }

    func write(byte: UInt8) { buffer.append(byte) }

    /// `value` with exactly `decimals` digits after the point (no exponent), e.g. `-0.000123`.
    func write(_ value: Double, decimals: Int) {
        ByteWriter.appendFixed(value, decimals: decimals, to: &buffer)
    }

    func write(_ value: Int, width: Int = 0) {
        ByteWriter.appendInteger(value, width: width, to: &buffer)
    }

    static func appendFixed(_ value: Double, decimals: Int, to out: inout [UInt8]) {
        var scale: Int64 = 1
        for _ in 0..<decimals { scale *= 10 }
        let scaled = Int64((value.magnitude * Double(scale)).rounded())
        if value < 0 && scaled != 0 { out.append(UInt8(ascii: "-")) }
        appendInteger(Int(scaled / scale), width: 0, to: &out)
        if decimals > 0 {
            out.append(UInt8(ascii: "."))
            appendInteger(Int(scaled % scale), width: decimals, to: &out)
        }
    }

    static func appendInteger(_ value: Int, width: Int, to out: inout [UInt8]) {
        var digits:
            (
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8
            ) =
                (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        var rest = value.magnitude
        withUnsafeMutableBytes(of: &digits) { raw in
            repeat {
                raw[count] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
                count += 1
            } while rest > 0
            if value < 0 { out.append(UInt8(ascii: "-")) }
            for _ in count..<max(count, width) { out.append(UInt8(ascii: "0")) }
            for i in stride(from: count - 1, through: 0, by: -1) { out.append(raw[i]) }
        }
    }

    private func flushIfFull() {
        if buffer.count >= 1 << 20 { flush() }
    }

    func flush() {
        var offset = 0
        buffer.withUnsafeBytes { raw in
            while offset < raw.count {
                let n = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n <= 0 { fatalError("write \(temporaryPath): \(String(cString: strerror(errno)))") }
                offset += n
            }
        }
        bytesWritten += buffer.count
        buffer.removeAll(keepingCapacity: true)
    }

    func close() throws(BenchError) {
        flush()
        Glibc.close(fd)
        guard rename(temporaryPath, path) == 0 else {
            throw BenchError("cannot rename \(temporaryPath) to \(path): \(String(cString: strerror(errno)))")
        }
    }
}
