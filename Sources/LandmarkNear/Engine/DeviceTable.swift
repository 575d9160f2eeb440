import CLinux

#if canImport(Glibc)
import Glibc
#endif

/// The engine's device table: device name -> slot number (0, 1, 2, … in order of first fix),
/// names compared byte for byte (UTF-8), never by Unicode equivalence (SPEC §3).
///
///     var table = DeviceTable()
///     table.slot(for: "alice")        // (slot: 0, isNew: true)
///     table.slot(for: "bob")          // (slot: 1, isNew: true)
///     table.slot(for: "alice")        // (slot: 0, isNew: false)
///     table.existingSlot(for: "cafe\u{301}")   // nil: "café" spelled another way
///
/// Written by hand rather than `[DeviceKey: Int32]` because it is the hot path of a stream of
/// many devices (measured with `perf` on 1M distinct devices: `Dictionary`'s hashing, key
/// comparisons and rehashing on growth were 29 % of `watch`'s time). `Dictionary` stores no
/// hash values, so each probe of an occupied bucket compares the names' bytes and each growth
/// hashes every name again; here each bucket keeps the name's full 64-bit hash next to its
/// slot, so a probe compares bytes only when the hashes are equal and growth re-hashes nothing.
/// The hash is `DeviceNameHash` (Swift's `Hasher`, SipHash-1-3 with a seed chosen per
/// process), because device names come from untrusted clients (`serve`): a fixed hash would
/// let one choose names that collide and turn every lookup into a scan. Fixes read from text
/// arrive with it computed (`Fix.deviceHash`), so the name is hashed once a fix.
struct DeviceTable {
    /// One bucket: the name's hash (0 = empty) and its slot, side by side so that a probe
    /// touches one cache line (with 1M devices the table is 32 MB, and two arrays were two
    /// cache misses a lookup: `DeviceTable.slot` was 11 % of a 1M-new-device run, per `perf`).
    private struct Bucket {
        var hash: UInt64 = 0
        var slot: Int32 = 0
    }

    private var buckets: [Bucket]
    /// Names by slot.
    private(set) var names: [String] = []
    private var mask: Int

    init() {
        buckets = Array(repeating: Bucket(), count: 16)
        mask = 15
    }

    var count: Int { names.count }

    /// The device's slot, given the next number (and its name stored) when it is new.
    /// `hash` is the name's `DeviceNameHash` when known (a reader computed it), else 0.
    mutating func slot(for name: String, hash known: UInt64 = 0) -> (slot: Int32, isNew: Bool) {
        let hash = known != 0 ? known : DeviceNameHash.of(name)
        var bucket = Int(truncatingIfNeeded: hash) & mask
        while true {
            let stored = buckets[bucket]
            if stored.hash == 0 { break }
            if stored.hash == hash, DeviceTable.sameBytes(names[Int(stored.slot)], name) {
                return (stored.slot, false)
            }
            bucket = (bucket + 1) & mask
        }
        let slot = Int32(names.count)
        names.append(name)
        buckets[bucket] = Bucket(hash: hash, slot: slot)
        // At most half full: probes stay short even with an unlucky run of buckets.
        if names.count * 2 > buckets.count { grow() }
        return (slot, true)
    }

    /// The device's slot, nil when the engine has not seen it.
    func existingSlot(for name: String) -> Int32? {
        let hash = DeviceNameHash.of(name)
        var bucket = Int(truncatingIfNeeded: hash) & mask
        while true {
            let stored = buckets[bucket]
            if stored.hash == 0 { return nil }
            if stored.hash == hash, DeviceTable.sameBytes(names[Int(stored.slot)], name) { return stored.slot }
            bucket = (bucket + 1) & mask
        }
    }

    /// Asks the CPU to fetch the first bucket a lookup of each hinted hash reads (a hint,
    /// nothing else): with 1M devices the table is 32 MB, and its cache miss was most of a new
    /// device's cost. Several hints at a time: the buckets are borrowed (retained) once.
    func prefetch(_ upcoming: ArraySlice<FixLookahead>) {
        buckets.withUnsafeBufferPointer { buckets in
            for hint in upcoming where hint.deviceHash != 0 {
                landmark_prefetch(buckets.baseAddress! + (Int(truncatingIfNeeded: hint.deviceHash) & mask))
            }
        }
    }

    /// Doubles the buckets, placing each entry by its stored hash (no name is hashed again).
    private mutating func grow() {
        let capacity = buckets.count * 2
        var newBuckets = [Bucket](unsafeUninitializedCapacity: capacity) { buffer, count in
            HugePages.advise(UnsafeMutableRawBufferPointer(buffer))
            buffer.initialize(repeating: Bucket())
            count = capacity
        }
        let newMask = capacity - 1
        for stored in buckets where stored.hash != 0 {
            var target = Int(truncatingIfNeeded: stored.hash) & newMask
            while newBuckets[target].hash != 0 { target = (target + 1) & newMask }
            newBuckets[target] = stored
        }
        buckets = newBuckets
        mask = newMask
    }

    @inline(__always)
    private static func sameBytes(_ lhs: String, _ rhs: String) -> Bool {
        var lhs = lhs
        var rhs = rhs
        return lhs.withUTF8 { left in
            rhs.withUTF8 { right in
                left.count == right.count && (left.count == 0 || memcmp(left.baseAddress!, right.baseAddress!, left.count) == 0)
            }
        }
    }
}
