import Testing

@testable import LandmarkNearEngine

@Suite(.suiteTimeLimit) struct DeviceStatesTests {
    /// States keep their slots across the chunk boundaries (65,536 a chunk; the first grows as
    /// an array), and a change through the subscript lands in the stored state, favourite
    /// entries beyond the inline one included.
    @Test func slotsHoldTheirStatesAcrossChunks() {
        var states = DeviceStates()
        let count = 3 * 65_536 + 17
        for slot in 0..<count {
            var state = DeviceState(favoriteSet: UInt16(slot % 7), prefersNotifications: slot % 2 == 0)
            state.fixCount = UInt32(slot)
            states.append(state)
        }
        #expect(states.count == count)
        for slot in [0, 1, 65_535, 65_536, 65_537, 131_071, 131_072, count - 1] {
            #expect(states[slot].fixCount == UInt32(slot))
            #expect(states[slot].favoriteSet == UInt16(slot % 7))
            #expect(states[slot].prefersNotifications == (slot % 2 == 0))
            states[slot].fixCount += 1
            for favorite in Int32(0)..<3 { _ = states[slot].positionCreating(favorite + Int32(slot % 5)) }
        }
        for slot in [0, 65_536, count - 1] {
            #expect(states[slot].fixCount == UInt32(slot) + 1)
            #expect(states[slot].entryCount == 3)
            #expect(states[slot].position(of: Int32(slot % 5) + 2) != nil)
        }
        #expect(states[2].entryCount == 0)
        #expect(states[65_538].fixCount == 65_538)
    }

    /// The advice never reaches outside the range, whatever its size and alignment: the whole
    /// range is still written and read back (a bad `madvise` would fault or fail silently,
    /// never change the bytes).
    @Test(arguments: [0, 1, 4095, 2 << 20, (4 << 20) + 3, (9 << 20) + 4096])
    func hugePageAdviceKeepsTheRange(bytes: Int) {
        let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, bytes), alignment: 8)
        defer { memory.deallocate() }
        let range = UnsafeMutableRawBufferPointer(rebasing: memory[0..<bytes])
        HugePages.advise(range)
        for offset in stride(from: 0, to: bytes, by: 4096) { range[offset] = UInt8(truncatingIfNeeded: offset >> 12) }
        let mismatches = stride(from: 0, to: bytes, by: 4096).count { range[$0] != UInt8(truncatingIfNeeded: $0 >> 12) }
        #expect(mismatches == 0)
    }
}
