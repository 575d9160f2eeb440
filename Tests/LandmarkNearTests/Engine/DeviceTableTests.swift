import Testing

@testable import LandmarkNearEngine

/// The engine's device table: slots in order of first sight, names compared byte for byte,
/// nothing lost when it grows.
@Suite(.timeLimit(.minutes(1)))
struct DeviceTableTests {
    @Test func slotsAreNumberedInOrderOfFirstSight() {
        var table = DeviceTable()
        #expect(table.slot(for: "alice") == (0, true))
        #expect(table.slot(for: "bob") == (1, true))
        #expect(table.slot(for: "alice") == (0, false))
        #expect(table.existingSlot(for: "bob") == 1)
        #expect(table.existingSlot(for: "carol") == nil)
        #expect(table.names == ["alice", "bob"])
    }

    @Test(arguments: [
        ("caf\u{E9}", "cafe\u{301}"),  // one scalar against a combining sequence
        ("\u{212B}", "\u{C5}"),  // ANGSTROM SIGN against LATIN CAPITAL A WITH RING
        ("", " "),
        ("d1", "d1\u{0}"),
    ])
    func namesEqualAsStringsButNotAsBytesAreTwoDevices(_ first: String, _ second: String) {
        var table = DeviceTable()
        let a = table.slot(for: first)
        let b = table.slot(for: second)
        #expect(a.isNew && b.isNew && a.slot != b.slot)
        #expect(table.existingSlot(for: first) == a.slot)
        #expect(table.existingSlot(for: second) == b.slot)
    }

    @Test(arguments: [1, 9, 1_000, 100_000])
    func everyNameKeepsItsSlotWhileTheTableGrows(_ count: Int) {
        var table = DeviceTable()
        for number in 0..<count { #expect(table.slot(for: "device-\(number)").slot == Int32(number)) }
        var misplaced = 0
        for number in 0..<count where table.slot(for: "device-\(number)") != (Int32(number), false) { misplaced += 1 }
        #expect(misplaced == 0)
        #expect(table.count == count)
        #expect(table.existingSlot(for: "device-\(count)") == nil)
    }

    /// Names whose hashes share their high half (one tag, one home bucket) or all 64 bits
    /// (a reader's hash is taken as given) are still told apart by their bytes, through
    /// growth and a long run of probes.
    @Test(arguments: [0, 0xFFFF_FFFF])
    func namesWithOneTagAreToldApartByTheirBytes(_ lowHalf: UInt64) {
        var table = DeviceTable()
        let sharedHigh: UInt64 = 0x9E37_79B9 << 32
        for number in 0..<3_000 {
            let hash = sharedHigh | (lowHalf == 0 ? UInt64(number) : lowHalf)
            #expect(table.slot(for: "d\(number)", hash: hash) == (Int32(number), true))
        }
        var misplaced = 0
        for number in 0..<3_000 {
            let hash = sharedHigh | (lowHalf == 0 ? UInt64(number) : lowHalf)
            if table.slot(for: "d\(number)", hash: hash) != (Int32(number), false) { misplaced += 1 }
        }
        #expect(misplaced == 0)
        #expect(table.slot(for: "d3000", hash: sharedHigh) == (3_000, true))
        #expect(table.count == 3_001)
    }
}
