import Foundation
import LandmarkNear

/// Reads every record of `path` as `format` and times it (wall clock, including the
/// reads from disk).
///
///     let (records, seconds) = runReaderBenchmark(path: "/tmp/fixes.ndjson", format: .ndjson)
///     print(Double(records) / seconds, "records/s")
func runReaderBenchmark(path: String, format: FixFormat) -> (records: Int, seconds: Double) {
    let start = DispatchTime.now().uptimeNanoseconds
    var records = 0
    do {
        let reader = try FixReader(input: .file(path), format: format)
        while let record = try reader.next() {
            if case .fix = record { records += 1 }
        }
    } catch {
        FileHandle.standardError.write(Data("landmark-bench: \(error)\n".utf8))
    }
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    return (records, seconds)
}
