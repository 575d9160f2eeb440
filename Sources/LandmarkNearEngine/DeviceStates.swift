/// The engine's device states by slot, in chunks of 65,536 that never move once allocated.
///
///     var states = DeviceStates()
///     states.append(DeviceState(favoriteSet: 0, prefersNotifications: true))
///     states[0].fixCount += 1      // in place: no copy of the state
///
/// Why not one `[DeviceState]`: with a million devices it doubles its way to 72 MB, and each
/// doubling copies every state into fresh memory, whose pages fault in as they are written
/// (measured; see Benchmarks/LOG.md).
/// The first chunk grows as an array does (most runs have a few devices); the others are
/// reserved whole (untouched pages cost no memory; `HugePages`) and filled in place, so a
/// state is written once and its pages fault once.
struct DeviceStates {
    private static let chunkShift = 16
    private static let chunkMask = (1 << chunkShift) - 1

    private var chunks: [[DeviceState]] = []
    private(set) var count = 0

    package mutating func append(_ state: DeviceState) {
        if count & DeviceStates.chunkMask == 0 {
            // Room for a whole chunk, on huge pages where the system gives them.
            let chunk =
                count == 0
                ? []
                : [DeviceState](unsafeUninitializedCapacity: 1 << DeviceStates.chunkShift) { buffer, initialized in
                    HugePages.advise(UnsafeMutableRawBufferPointer(buffer))
                    initialized = 0
                }
            chunks.append(chunk)
        }
        chunks[count >> DeviceStates.chunkShift].append(state)
        count += 1
    }

    /// The state of `slot` (0 ..< count); a mutation through it changes the stored state in
    /// place (`_modify` yields it: a get-and-set would copy it out, and the copy would share
    /// its favourite entries' storage and force a copy of that on the first change).
    subscript(slot: Int) -> DeviceState {
        get { chunks[slot >> DeviceStates.chunkShift][slot & DeviceStates.chunkMask] }
        _modify { yield &chunks[slot >> DeviceStates.chunkShift][slot & DeviceStates.chunkMask] }
    }
}
