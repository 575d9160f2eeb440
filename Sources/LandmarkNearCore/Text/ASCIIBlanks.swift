/// The blanks that readers trim and skip, by byte: `spacesAndTabs` inside a line (CSV cells,
/// numbers in strings, option values) and `whitespace` (JSON's: space, tab, CR, LF) around
/// documents and between tokens. Byte loops, not Foundation's `trimmingCharacters(in:)`, which
/// bridges through NSString and costs more than a whole catalog cell.
///
///     ASCIIBlanks.spacesAndTabs.trimming(" 34.5 ")   // "34.5"
@_spi(Inlining) public enum ASCIIBlanks {
    case spacesAndTabs
    case whitespace

    @inlinable @inline(__always)
    @_spi(Inlining) public func contains(_ byte: UInt8) -> Bool {
        switch self {
        case .spacesAndTabs: return byte == 0x20 || byte == 0x09
        case .whitespace: return byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
        }
    }

    /// The bytes without leading and trailing blanks.
    @inlinable @inline(__always)
    @_spi(Inlining) public func trimming(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        var lower = 0
        var upper = bytes.count
        while lower < upper, contains(bytes[lower]) { lower += 1 }
        while upper > lower, contains(bytes[upper - 1]) { upper -= 1 }
        return UnsafeBufferPointer(rebasing: bytes[lower..<upper])
    }

    /// The bytes without leading and trailing blanks.
    @inlinable
    public func trimming<C: BidirectionalCollection<UInt8>>(_ bytes: C) -> C.SubSequence {
        guard let first = bytes.firstIndex(where: { !contains($0) }) else { return bytes[bytes.endIndex...] }
        let last = bytes.lastIndex(where: { !contains($0) })!
        return bytes[first...last]
    }

    /// The text without leading and trailing blanks (which are ASCII, so whole characters).
    @inlinable
    public func trimming(_ text: some StringProtocol) -> Substring {
        let text = Substring(text)
        let utf8 = text.utf8
        guard let first = utf8.firstIndex(where: { !contains($0) }) else { return text[text.endIndex...] }
        let last = utf8.lastIndex(where: { !contains($0) })!
        return text[first...last]
    }

    /// Whether every byte is blank (an empty input included).
    @inlinable
    public func isBlank(_ bytes: some Sequence<UInt8>) -> Bool {
        // A closure, not the method `contains` itself: that would be a partial application,
        // allocated on each call (one a row of a CSV catalog).
        bytes.allSatisfy { contains($0) }
    }
}
