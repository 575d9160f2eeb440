import Testing

@testable import LandmarkNearOutputs

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

    @Test func aLargeTableTakesMemoryOnlyWhereWritten() {
        // 800 MB of table: none of it in memory until written, then a page a write (or a
        // huge page, where the system gives them to every mapping: 10 writes, 20 MB at most).
        let table = ZeroedTable(count: 100_000_000)
        #expect(table.residentBytes == 0)
        for position in stride(from: 0, to: table.count, by: 10_000_000) { table[position] = -1 }
        let resident = table.residentBytes
        #expect(resident > 0 && resident <= 10 * 2 << 20, "\(resident) bytes")
        #expect(table[10_000_000] == -1 && table[10_000_001] == 0)
    }
}
