import CLinux
@_spi(Inlining) import LandmarkNearCore

#if canImport(Glibc)
import Glibc
#endif

/// The engine's device table: device name -> slot number (0, 1, 2, … in order of first fix),
/// names compared byte for byte (UTF-8), never by Unicode equivalence (docs/reference/fixes.md).
///
///     var table = DeviceTable()
///     table.slot(for: "alice")        // (slot: 0, isNew: true)
///     table.slot(for: "bob")          // (slot: 1, isNew: true)
///     table.slot(for: "alice")        // (slot: 0, isNew: false)
///     table.existingSlot(for: "cafe\u{301}")   // nil: "café" spelled another way
///
/// Written by hand rather than `[DeviceKey: Int32]` because it is the hot path of a stream of
/// many devices (measured: `Dictionary`'s hashing, key comparisons and rehashing on growth cost
/// a large share of `watch`'s time; see Benchmarks/LOG.md). `Dictionary` stores no
/// hash values, so each probe of an occupied bucket compares the names' bytes and each growth
/// hashes every name again; here each bucket keeps the high half of the name's 64-bit hash
/// (its tag) next to its slot, so a probe compares bytes only when the tags are equal, and
/// the bucket a name belongs in is read from its tag's top bits, so growth re-hashes nothing.
/// The hash is `DeviceNameHash` (Swift's `Hasher`, SipHash-1-3 with a seed chosen per
/// process), because device names come from untrusted clients (`serve`): a fixed hash would
/// let one choose names that collide and turn every lookup into a scan. Fixes read from text
/// arrive with it computed (`Fix.deviceHash`), so the name is hashed once a fix.
struct DeviceTable {
    /// One bucket: the name's tag (0 = empty) and its slot, side by side so that a probe
    /// touches one cache line (two arrays are two cache misses a lookup). Eight bytes, not the
    /// sixteen of a full hash and a slot: with 1M devices the table is 16 MB, and every doubling
    /// writes fresh memory whose page faults (the kernel zeroing it) grow with its size (both
    /// measured; see Benchmarks/LOG.md).
    private struct Bucket {
        var tag: UInt32 = 0
        var slot: Int32 = 0
    }

    private var buckets: [Bucket]
    /// Names by slot.
    private(set) var names: [String] = []
    private var mask: Int
    /// A tag's home bucket is its low 31 bits shifted right by this (31 − log2 of the
    /// buckets): the top bits, so that a doubling takes one bit more of what is stored.
    private var shift: Int

    init() {
        buckets = Array(repeating: Bucket(), count: 16)
        mask = 15
        shift = 27
    }

    var count: Int { names.count }

    /// The high half of a name's hash, its top bit set (never 0, the empty bucket's tag;
    /// `DeviceNameHash` sets bit 63 anyway). Its other 31 bits place the name and filter the
    /// byte comparisons (two names share a tag once in 2^31).
    @inline(__always)
    private static func tag(of hash: UInt64) -> UInt32 {
        UInt32(truncatingIfNeeded: hash >> 32) | 0x8000_0000
    }

    @inline(__always)
    private func home(of tag: UInt32) -> Int {
        Int(truncatingIfNeeded: tag & 0x7FFF_FFFF) >> shift
    }

    /// The device's slot, given the next number (and its name stored) when it is new.
    /// `hash` is the name's `DeviceNameHash` when known (a reader computed it), else 0.
    mutating func slot(for name: String, hash known: UInt64 = 0) -> (slot: Int32, isNew: Bool) {
        let tag = DeviceTable.tag(of: known != 0 ? known : DeviceNameHash.of(name))
        var bucket = home(of: tag)
        while true {
            let stored = buckets[bucket]
            if stored.tag == 0 { break }
            if stored.tag == tag, DeviceTable.sameBytes(names[Int(stored.slot)], name) {
                return (stored.slot, false)
            }
            bucket = (bucket + 1) & mask
        }
        let slot = Int32(names.count)
        names.append(name)
        buckets[bucket] = Bucket(tag: tag, slot: slot)
        // At most half full: probes stay short even with an unlucky run of buckets. (A tag
        // places at most 2^31 buckets: past 2^30 devices the table fills further instead,
        // and `Int32` slots end at 2^31 - 1, so one bucket is always left empty.)
        if names.count * 2 > buckets.count, shift > 0 { grow() }
        return (slot, true)
    }

    /// The device's slot, nil when the engine has not seen it.
    func existingSlot(for name: String) -> Int32? {
        let tag = DeviceTable.tag(of: DeviceNameHash.of(name))
        var bucket = home(of: tag)
        while true {
            let stored = buckets[bucket]
            if stored.tag == 0 { return nil }
            if stored.tag == tag, DeviceTable.sameBytes(names[Int(stored.slot)], name) { return stored.slot }
            bucket = (bucket + 1) & mask
        }
    }

    /// Asks the CPU to fetch the first bucket a lookup of each hinted hash reads (a hint,
    /// nothing else): with 1M devices the table is 16 MB, and its cache miss is most of a new
    /// device's cost (measured; see Benchmarks/LOG.md). Several hints at a time: the buckets are
    /// borrowed (retained) once.
    func prefetch(_ upcoming: ArraySlice<FixLookahead>) {
        buckets.withUnsafeBufferPointer { buckets in
            for hint in upcoming where hint.deviceHash != 0 {
                landmark_prefetch(buckets.baseAddress! + home(of: DeviceTable.tag(of: hint.deviceHash)))
            }
        }
    }

    /// Doubles the buckets, placing each entry by its stored tag (no name is hashed again).
    /// Homes keep their order (each is the old one times two, or that plus one), so the old
    /// buckets are read and the new ones written in order.
    private mutating func grow() {
        let capacity = buckets.count * 2
        var newBuckets = [Bucket](unsafeUninitializedCapacity: capacity) { buffer, count in
            HugePages.advise(UnsafeMutableRawBufferPointer(buffer))
            buffer.initialize(repeating: Bucket())
            count = capacity
        }
        let newMask = capacity - 1
        let newShift = shift - 1
        for stored in buckets where stored.tag != 0 {
            var target = Int(truncatingIfNeeded: stored.tag & 0x7FFF_FFFF) >> newShift
            while newBuckets[target].tag != 0 { target = (target + 1) & newMask }
            newBuckets[target] = stored
        }
        buckets = newBuckets
        mask = newMask
        shift = newShift
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
