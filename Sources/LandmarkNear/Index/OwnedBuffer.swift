/// Read-only memory that one object owns: the index's tables.
///
/// Why not arrays: the hot paths of a query touch a dozen tables, and each use of an array held
/// by a class retained and released its buffer and checked its bounds (about 7 % of a 5-mile
/// search). A buffer is a plain pointer; its owner (a final class) copies the table in once
/// and frees it in `deinit`.
///
///     let table = UnsafeBufferPointer.ownedCopy(of: [1.0, 2.0])
///     defer { table.freeOwned() }
extension UnsafeBufferPointer {
    /// A copy of `array` in memory of its own (never a nil base address, even when empty).
    static func ownedCopy(of array: [Element]) -> UnsafeBufferPointer<Element> {
        let memory = UnsafeMutableBufferPointer<Element>.allocate(capacity: Swift.max(1, array.count))
        _ = memory.initialize(from: array)
        return UnsafeBufferPointer(start: memory.baseAddress, count: array.count)
    }

    /// Frees memory from `ownedCopy(of:)`; for plain values (numbers and structs of them), which
    /// need no deinitialisation.
    func freeOwned() {
        baseAddress?.deallocate()
    }
}
