import Glibc
@_spi(Inlining) import LandmarkNearCore

/// The byte-level reading shared by the catalog scanners (tutorial JSON, GeoJSON): JSON
/// values straight from the bytes, no document tree, strings kept as ranges of the input.
///
/// Hand-written because it is a measured hot path: `JSONParser`'s tree costs a catalog load a
/// large share of its time and memory (see Benchmarks/LOG.md).
///
/// It decides nothing it is not sure of: any method returns nil or false where the full
/// parser might answer differently (an escape it cannot decode, bad syntax, nesting past
/// `maximumDepth`), and the loader then takes the full parser with its errors.
struct CatalogByteScanner {
    typealias Bytes = UnsafeBufferPointer<UInt8>

    /// One scalar JSON value as scanned.
    enum Value {
        case absent, null
        case bool(Bool)
        case number(Double)
        case string(Range<Int>)
        /// A string that had escapes (`T\"boli`), decoded into `decoded[n]` (so that a
        /// value holds no reference: copying the fields of an entry costs no retain).
        case decoded(Int)
    }

    package let bytes: Bytes
    var i = 0
    /// The file the bytes are mapped from, whose pages behind the scan are let go.
    private let file: MappedFile?
    private var released = 0
    /// Where the scan started: the pages before it are another scanner's to let go of.
    private let start: Int
    /// The strings with escapes of the entry being read (emptied by `startEntry`).
    private(set) var decoded: [String] = []
    /// The keys of the entries read so far by ordinal in the entry (`key()`; 16, a power of
    /// two: ordinals wrap around), and the ordinal of the next (reset by `startEntry`).
    private var rememberedKeys = InlineArray<16, RememberedKey>(repeating: RememberedKey())
    private var keyOrdinal = 0

    /// The reader of the places met so far (`GeometryScanner`), made at the first: one GEOS
    /// context per scanner, so per thread of a split scan.
    private var shapes: ShapeReader?

    mutating func shapeReader() -> ShapeReader {
        if let shapes { return shapes }
        let made = ShapeReader()
        shapes = made
        return made
    }

    /// Nesting the skipper follows before it leaves a document to the parser (whose limit is 512).
    package static let maximumDepth = 64

    /// A scanner at `start` (the second half of a split scan starts at its seam).
    package init(bytes: Bytes, file: MappedFile?, from start: Int = 0) {
        self.bytes = bytes
        self.file = file
        self.start = start
        i = start
        released = start
    }

    var atEnd: Bool { i == bytes.count }

    @inline(__always) mutating func startEntry() {
        keyOrdinal = 0
        if !decoded.isEmpty { decoded.removeAll(keepingCapacity: true) }
    }

    /// Lets go of the pages read, every megabyte (a coarser step holds more pages at the peak;
    /// see Benchmarks/LOG.md).
    @inline(__always) package mutating func releaseBehind() {
        guard let file, i - released >= 1 << 20 else { return }
        file.release(from: bytes.baseAddress! + start, before: bytes.baseAddress! + i)
        released = i
    }

    @inline(__always) mutating func skipSpace() {
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 { i += 1 }
    }

    @inline(__always) mutating func take(_ byte: UInt8) -> Bool {
        guard i < bytes.count, bytes[i] == byte else { return false }
        i += 1
        return true
    }

    @inline(__always) func matches(_ range: Range<Int>, _ word: StaticString) -> Bool {
        range.count == word.utf8CodeUnitCount && CatalogEntryFields.matches(Bytes(rebasing: bytes[range]), word)
    }

    /// A string without escapes or control characters, from its opening quote; its
    /// contents' range (UTF-8 checked).
    @inline(__always) mutating func string() -> Range<Int>? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        let start = i
        var ascii = true
        // Eight bytes at a time while none is a quote, a backslash, a control character
        // or non-ASCII (SWAR: a byte b is flagged when b < 0x20, b ^ '"' < 1, b ^ '\\' < 1
        // or its high bit is set).
        while i + 8 <= bytes.count {
            let flagged = flaggedBytes(at: i)
            if flagged != 0 {
                // The first flagged byte is a real one (see `flaggedBytes`): a closing quote
                // ends the string here, anything else is read byte by byte.
                let at = i + flagged.trailingZeroBitCount / 8
                if bytes[at] == UInt8(ascii: "\"") {
                    i = at + 1
                    return start..<at
                }
                i = at
                break
            }
            i += 8
        }
        while i < bytes.count {
            let byte = bytes[i]
            if byte == UInt8(ascii: "\"") {
                i += 1
                // The parser refuses invalid UTF-8 in any string, key or value.
                if !ascii, String(validating: Bytes(rebasing: bytes[start..<(i - 1)]), as: UTF8.self) == nil { return nil }
                return start..<(i - 1)
            }
            if byte < 0x20 || byte == UInt8(ascii: "\\") { return nil }
            if byte >= 0x80 { ascii = false }
            i += 1
        }
        return nil
    }

    /// The quotes, backslashes, control characters and non-ASCII bytes among the eight at
    /// `offset` (`JSONStringWord.flagged`).
    @inline(__always) func flaggedBytes(at offset: Int) -> UInt64 {
        JSONStringWord.flagged(bytes, at: offset)
    }

    /// A key: its range, or nil for a key with escapes (left to the parser). Keys are a few
    /// ASCII bytes: one look at the eight bytes after the quote usually finds the closing one
    /// (measured: a byte-by-byte loop costs a fifth of the instructions of loading a tutorial
    /// catalog; see Benchmarks/LOG.md).
    ///
    /// Before that, the key is looked for where the entry before had its key of the same
    /// ordinal (`RememberedKey`): catalogs repeat one layout entry after entry, and the same
    /// bytes from the opening quote through the blanks after the colon read as the same key,
    /// whatever the context, so a match of those bytes is the answer the scan would give.
    @inline(__always) mutating func key() -> Range<Int>? {
        skipSpace()
        let ordinal = keyOrdinal & (rememberedKeys.count - 1)
        keyOrdinal &+= 1
        if i + 16 <= bytes.count {
            let remembered = rememberedKeys[ordinal]
            let here = UnsafeRawPointer(bytes.baseAddress.unsafelyUnwrapped + i)
            let low = here.loadUnaligned(as: UInt64.self)
            let high = here.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
            if remembered.length > 0, (low ^ remembered.low) & remembered.lowMask | (high ^ remembered.high) & remembered.highMask == 0 {
                let start = i + 1
                i += Int(remembered.length)
                skipSpace()
                return start..<(start + Int(remembered.keyLength))
            }
        }
        return scannedKey(remembering: ordinal)
    }

    /// `key()` by scanning the bytes, remembered at `ordinal`. Not inlined: kept out of the
    /// callers, the remembered path above needs no registers saved.
    @inline(never) private mutating func scannedKey(remembering ordinal: Int) -> Range<Int>? {
        let opening = i
        guard let key = scannedKey() else { return nil }
        let length = i - opening
        if length <= 16, opening + 16 <= bytes.count {
            rememberedKeys[ordinal] = RememberedKey(
                at: UnsafeRawPointer(bytes.baseAddress.unsafelyUnwrapped + opening), length: length, keyLength: key.count)
        }
        return key
    }

    /// The bytes of a key as last read at its ordinal in an entry, from the opening quote
    /// through the blanks after the colon (at most 16), with masks for its length.
    struct RememberedKey {
        var low: UInt64 = 0
        var high: UInt64 = 0
        var lowMask: UInt64 = 0
        var highMask: UInt64 = 0
        /// 0: none remembered.
        var length: Int32 = 0
        var keyLength: Int32 = 0

        init() {}

        /// The `length` bytes at `start` (16 may be read).
        init(at start: UnsafeRawPointer, length: Int, keyLength: Int) {
            lowMask = length >= 8 ? ~0 : (1 << (8 * UInt64(length))) &- 1
            highMask = length <= 8 ? 0 : length >= 16 ? ~0 : (1 << (8 * UInt64(length - 8))) &- 1
            low = start.loadUnaligned(as: UInt64.self) & lowMask
            high = start.loadUnaligned(fromByteOffset: 8, as: UInt64.self) & highMask
            self.length = Int32(length)
            self.keyLength = Int32(keyLength)
        }
    }

    /// `key()` by scanning the bytes.
    @inline(__always) private mutating func scannedKey() -> Range<Int>? {
        skipSpace()
        guard take(UInt8(ascii: "\"")) else { return nil }
        let start = i
        var key: Range<Int>?
        while i + 8 <= bytes.count {
            let flagged = flaggedBytes(at: i)
            if flagged != 0 {
                let at = i + flagged.trailingZeroBitCount / 8
                if bytes[at] == UInt8(ascii: "\"") {
                    key = start..<at
                    i = at + 1
                }
                break
            }
            i += 8
        }
        while key == nil, i < bytes.count {
            let byte = bytes[i]
            if byte == UInt8(ascii: "\"") {
                key = start..<i
                i += 1
                break
            }
            if byte < 0x20 || byte == UInt8(ascii: "\\") || byte >= 0x80 { break }
            i += 1
        }
        if key == nil {
            i = start - 1
            guard let full = string() else { return nil }
            key = full
        }
        skipSpace()
        guard take(UInt8(ascii: ":")) else { return nil }
        skipSpace()
        return key
    }

    /// After a member or element: true for `,` (another follows), false for `close`; nil otherwise.
    @inline(__always) mutating func next(closing close: UInt8) -> Bool? {
        skipSpace()
        if take(UInt8(ascii: ",")) { return true }
        return take(close) ? false : nil
    }

    @inline(__always) mutating func literal(_ word: StaticString) -> Bool {
        let length = word.utf8CodeUnitCount
        guard i + length <= bytes.count else { return false }
        // A loop over the few bytes, which the compiler unrolls (a call to `memcmp` cost more).
        let here = bytes.baseAddress.unsafelyUnwrapped + i
        for k in 0..<length where here[k] != word.utf8Start[k] { return false }
        i += length
        return true
    }

    var isAtContainer: Bool { i < bytes.count && (bytes[i] == UInt8(ascii: "{") || bytes[i] == UInt8(ascii: "[")) }

    /// A scalar value; nil for anything else (an object or array, bad syntax).
    ///
    /// The usual values (an ASCII string without escapes, a plain number, `true`, `false`) are
    /// read here, inlined into the scanners; anything else by `anyScalar`, kept out of line so
    /// that these paths need no registers saved (measured; see Benchmarks/LOG.md).
    @inline(__always) mutating func scalar() -> Value? {
        guard i < bytes.count else { return nil }
        let first = bytes[i]
        if first == UInt8(ascii: "\"") {
            if let range = asciiString() { return .string(range) }
        } else if first &- 0x30 < 10 || first == UInt8(ascii: "-") {
            if let value = plainNumber() { return .number(value) }
        } else if first == UInt8(ascii: "t") {
            if literal("true") { return .bool(true) }
        } else if first == UInt8(ascii: "f") {
            if literal("false") { return .bool(false) }
        }
        return anyScalar()
    }

    /// A string from its opening quote whose bytes are all ASCII, none a control character or
    /// a backslash: its contents' range (what `string()` gives it); nil, with nothing
    /// consumed, for any other.
    @inline(__always) private mutating func asciiString() -> Range<Int>? {
        let start = i + 1
        var j = start
        while j + 8 <= bytes.count {
            let flagged = flaggedBytes(at: j)
            if flagged != 0 {
                let at = j + flagged.trailingZeroBitCount / 8
                guard bytes[at] == UInt8(ascii: "\"") else { return nil }
                i = at + 1
                return start..<at
            }
            j += 8
        }
        return nil
    }

    /// `scalar()` for any value.
    @inline(never) private mutating func anyScalar() -> Value? {
        guard i < bytes.count else { return nil }
        switch bytes[i] {
        case UInt8(ascii: "\""):
            let start = i
            if let range = string() { return .string(range) }
            i = start
            guard let text = escapedString() else { return nil }
            decoded.append(text)
            return .decoded(decoded.count - 1)
        case UInt8(ascii: "t"): return literal("true") ? .bool(true) : nil
        case UInt8(ascii: "f"): return literal("false") ? .bool(false) : nil
        case UInt8(ascii: "n"): return literal("null") ? .null : nil
        default:
            if let value = plainNumber() { return .number(value) }
            guard let end = JSONNumberGrammar.end(ofNumberIn: bytes, from: i),
                let value = DecimalNumber.parseJSON(Bytes(rebasing: bytes[i..<end]))
            else { return nil }
            i = end
            return .number(value)
        }
    }

    /// The usual numbers (`-116.166868`, `1001`) in one pass: JSON's grammar without an
    /// exponent, at most 19 digits and 22 decimals, then exactly as `DecimalNumber`'s fast path
    /// (Clinger's: one correctly rounded division of exact values), so the same Double as the
    /// parser's `Double(String)`. nil, with nothing consumed, for anything else.
    @inline(__always) private mutating func plainNumber() -> Double? {
        var j = i
        let count = bytes.count
        let negative = bytes[j] == UInt8(ascii: "-")
        if negative { j += 1 }
        guard j < count, bytes[j] &- 0x30 < 10 else { return nil }
        // A leading zero must stand alone before the point (`01` is not JSON).
        if bytes[j] == UInt8(ascii: "0"), j + 1 < count, bytes[j + 1] &- 0x30 < 10 { return nil }
        var mantissa: UInt64 = 0
        var digits = 0
        while j < count, bytes[j] &- 0x30 < 10 {
            mantissa = mantissa &* 10 &+ UInt64(bytes[j] &- 0x30)
            digits += 1
            j += 1
        }
        var decimals = 0
        if j < count, bytes[j] == UInt8(ascii: ".") {
            j += 1
            while j < count, bytes[j] &- 0x30 < 10 {
                mantissa = mantissa &* 10 &+ UInt64(bytes[j] &- 0x30)
                decimals += 1
                j += 1
            }
            guard decimals > 0 else { return nil }
        }
        guard digits + decimals <= 19, decimals <= 22, mantissa <= 1 << 53 else { return nil }
        if j < count, bytes[j] | 0x20 == UInt8(ascii: "e") { return nil }
        i = j
        let value = Double(mantissa) / Self.powersOfTen[decimals]
        return negative ? -value : value
    }

    /// 10⁰ ... 10²² (each exact), written out: a table made by a closure is initialised
    /// lazily, behind a check on every number read.
    private static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20,
        1e21, 1e22,
    ]

    /// Any value, checked as the parser would and thrown away (unknown members may hold
    /// anything).
    mutating func skipValue(depth: Int = 0) -> Bool {
        guard i < bytes.count else { return false }
        switch bytes[i] {
        case UInt8(ascii: "{"):
            guard depth < Self.maximumDepth else { return false }
            i += 1
            skipSpace()
            if take(UInt8(ascii: "}")) { return true }
            while true {
                skipSpace()
                if string() == nil {
                    // A key with escapes: decoded only to check it.
                    guard escapedString() != nil else { return false }
                }
                skipSpace()
                guard take(UInt8(ascii: ":")) else { return false }
                skipSpace()
                guard skipValue(depth: depth + 1) else { return false }
                guard let more = next(closing: UInt8(ascii: "}")) else { return false }
                if !more { return true }
            }
        case UInt8(ascii: "["):
            guard depth < Self.maximumDepth else { return false }
            i += 1
            skipSpace()
            if take(UInt8(ascii: "]")) { return true }
            while true {
                skipSpace()
                guard skipValue(depth: depth + 1) else { return false }
                guard let more = next(closing: UInt8(ascii: "]")) else { return false }
                if !more { return true }
            }
        default:
            return scalar() != nil
        }
    }

    /// The string value as a String (nil for any other type; its UTF-8 was checked).
    func text(_ value: Value) -> String? {
        switch value {
        case .string(let range): return String(decoding: Bytes(rebasing: bytes[range]), as: UTF8.self)
        case .decoded(let n): return decoded[n]
        default: return nil
        }
    }

    /// The string value as a catalog text (`.none` for any other type).
    @inline(__always) func columnText(_ value: Value) -> CatalogColumns.Text {
        switch value {
        case .string(let range): return .bytes(Bytes(rebasing: bytes[range]))
        case .decoded(let n): return .string(decoded[n])
        default: return .none
        }
    }

    /// `CatalogFields.flag` of the first present of `first`, `second`.
    @inline(__always) func flag(_ first: Value, _ second: Value = .absent) -> Bool {
        let value: Value
        if case .absent = first { value = second } else { value = first }
        switch value {
        case .absent, .null: return false
        case .bool(let b): return b
        case .number(let d): return d != 0
        case .string, .decoded: return CSVLine.boolean(text(value)!) ?? false
        }
    }

    /// `CatalogFields.id`: absent or null gives nil (the entry's position counts), an integral
    /// number gives itself; `.some(nil)` for anything the full path decides (a string, a fraction).
    @inline(__always) func id(_ value: Value) -> Int?? {
        switch value {
        case .absent, .null: return .some(nil)
        case .number(let d):
            // `JSONValue.integer` (integral, |d| <= 2^53) without its call to `rounded()`.
            guard abs(d) <= 9_007_199_254_740_992, Double(Int(d)) == d else { return nil }
            return .some(Int(d))
        default: return nil
        }
    }
}
