/// The UTF-8 byte-order mark (`EF BB BF`) that some editors and Windows tools write at the
/// start of a text file. It is not part of the text: every reader skips it, through here.
///
///     ByteOrderMark.length(of: Array("\u{FEFF}{}".utf8))   // 3
package enum ByteOrderMark {
    static let bytes: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// 3 when `bytes` starts with the mark, else 0.
    @inline(__always)
    package static func length<C: Collection<UInt8>>(of bytes: C) -> Int {
        var iterator = bytes.makeIterator()
        return iterator.next() == 0xEF && iterator.next() == 0xBB && iterator.next() == 0xBF ? 3 : 0
    }

    /// Whether `bytes` is too short to tell yet: fewer than three bytes that may begin a mark
    /// (a live stream waits for more before deciding).
    package static func mayBegin<C: Collection<UInt8>>(_ bytes: C) -> Bool {
        bytes.count < 3 && bytes.starts(with: ByteOrderMark.bytes.prefix(bytes.count))
    }

    /// `bytes` without a leading mark.
    package static func dropped(from bytes: [UInt8]) -> ArraySlice<UInt8> {
        bytes.dropFirst(length(of: bytes))
    }

    /// `text` without a leading U+FEFF.
    package static func dropped(from text: Substring) -> Substring {
        text.first == "\u{FEFF}" ? text.dropFirst() : text
    }
}
