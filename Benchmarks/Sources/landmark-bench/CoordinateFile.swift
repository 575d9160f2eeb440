import LandmarkNear

#if canImport(Glibc)
import Glibc
#endif

/// Reads the coordinate columns of the generated CSV files (and of `Benchmarks/data/cities.csv`)
/// fast: the latitude and longitude columns come before any quoted text, so a line is cut at
/// commas only up to them, and `strtod` reads the numbers in place.
struct CoordinateFile {
    var coordinates: [Coordinate]
    /// The rest of each line after the longitude column (for `cities.csv`: the name, as written).
    var rests: [String]

    /// `latColumn` and `lonColumn` are 0-based and `lonColumn == latColumn + 1`. Skips the
    /// header line. `limit` stops after that many rows.
    static func read(path: String, latColumn: Int, keepRest: Bool = false, limit: Int = .max) throws(BenchError) -> CoordinateFile {
        guard let file = fopen(path, "rb") else { throw BenchError("cannot open \(path): \(String(cString: strerror(errno)))") }
        defer { fclose(file) }
        fseek(file, 0, SEEK_END)
        let size = ftell(file)
        fseek(file, 0, SEEK_SET)
        var bytes = [UInt8](repeating: 0, count: size + 1)  // NUL-terminated for strtod
        let read = bytes.withUnsafeMutableBytes { fread($0.baseAddress, 1, size, file) }
        guard read == size else { throw BenchError("short read of \(path)") }

        var result = CoordinateFile(coordinates: [], rests: [])
        bytes.withUnsafeBufferPointer { buffer in
            let base = UnsafeRawPointer(buffer.baseAddress!).assumingMemoryBound(to: CChar.self)
            var i = 0
            // skip header
            while i < size && buffer[i] != 0x0A { i += 1 }
            i += 1
            while i < size && result.coordinates.count < limit {
                var column = 0
                while column < latColumn {
                    while i < size && buffer[i] != UInt8(ascii: ",") && buffer[i] != 0x0A { i += 1 }
                    i += 1
                    column += 1
                }
                var end: UnsafeMutablePointer<CChar>? = nil
                let lat = strtod(base + i, &end)
                i = UnsafePointer(end!) - base + 1  // past the comma
                let lon = strtod(base + i, &end)
                i = UnsafePointer(end!) - base
                var lineEnd = i
                while lineEnd < size && buffer[lineEnd] != 0x0A { lineEnd += 1 }
                if keepRest {
                    var start = i
                    if start < lineEnd && buffer[start] == UInt8(ascii: ",") { start += 1 }
                    var stop = lineEnd
                    if stop > start && buffer[stop - 1] == 0x0D { stop -= 1 }
                    result.rests.append(String(decoding: buffer[start..<stop], as: UTF8.self))
                }
                result.coordinates.append(Coordinate(latitude: lat, longitude: lon))
                i = lineEnd + 1
            }
        }
        return result
    }
}
