/// Read-only memory that one object owns: the index's tables.
///
/// Why not arrays: the hot paths of a query touch a dozen tables, and each use of an array held
/// by a class retains and releases its buffer and checks its bounds (measured; see
/// Benchmarks/LOG.md). A buffer is a plain pointer; its owner (a final class) copies the table in
/// once and frees it in `deinit`.
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

    /// `count` elements, element i being `element(i)`, in memory of its own (made in place: a
    /// copy of an array would hold the table twice while it is made).
    static func owned(count: Int, _ element: (Int) -> Element) -> UnsafeBufferPointer<Element> {
        let memory = UnsafeMutableBufferPointer<Element>.allocate(capacity: Swift.max(1, count))
        for i in 0..<count { memory.initializeElement(at: i, to: element(i)) }
        return UnsafeBufferPointer(start: memory.baseAddress, count: count)
    }

    /// `count` elements, first `value`, then given their values by `fill`, in memory of its own.
    static func owned(
        repeating value: Element, count: Int, _ fill: (UnsafeMutableBufferPointer<Element>) -> Void
    ) -> UnsafeBufferPointer<Element> {
        let memory = UnsafeMutableBufferPointer<Element>.allocate(capacity: Swift.max(1, count))
        memory.initialize(repeating: value)
        fill(UnsafeMutableBufferPointer(rebasing: memory[0..<count]))
        return UnsafeBufferPointer(start: memory.baseAddress, count: count)
    }

    /// Frees memory from `ownedCopy(of:)` or `owned`; for plain values (numbers and structs of them), which
    /// need no deinitialisation.
    func freeOwned() {
        baseAddress?.deallocate()
    }
}
