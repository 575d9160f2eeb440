import Foundation
import Testing

@testable import LandmarkNear

/// `ZeroedTable`: all zero at first, whatever is written reads back, and a large table takes
/// memory only where written.
@Suite(.suiteTimeLimit)
struct ZeroedTableTests {
    @Test(arguments: [0, 1, 511, 512, 513, 1_000_000])
    func startsAllZeroAndKeepsWhatIsWritten(_ count: Int) {
        let table = ZeroedTable(count: count)
        #expect(table.count == count)
        guard count > 0 else { return }
        let positions = Set([0, count / 3, count / 2, count - 1])
        for position in positions { #expect(table[position] == 0) }
        for position in positions { table[position] = position &* 7 &+ 1 }
        for position in positions { #expect(table[position] == position &* 7 &+ 1) }
        // Neighbours of written entries are still zero.
        for position in positions where position + 1 < count && !positions.contains(position + 1) {
            #expect(table[position + 1] == 0)
        }
    }

    @Test func aLargeTableTakesMemoryOnlyWhereWritten() throws {
        let before = try residentKilobytes()
        // 800 MB of table, a few entries written: resident memory grows by pages, not megabytes.
        let table = ZeroedTable(count: 100_000_000)
        for position in stride(from: 0, to: table.count, by: 10_000_000) { table[position] = -1 }
        let after = try residentKilobytes()
        #expect(after - before < 16 * 1024, "\(before) -> \(after) kB")
        #expect(table[10_000_000] == -1 && table[10_000_001] == 0)
    }

    /// VmRSS of this process, kB.
    private func residentKilobytes() throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") })
        return try #require(Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]))
    }
}
