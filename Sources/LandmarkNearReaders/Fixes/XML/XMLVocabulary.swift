import Glibc
@_spi(Inlining) import LandmarkNearCore

/// One XML track format read through `XMLRecordSource` (GPX, KML, TCX): it gets the parser's
/// element events and turns the elements it knows into records, keeping only the point being
/// read (or, for KML's `gx:Track`, the times not yet paired), never the document.
protocol XMLVocabulary {
    /// The root element's local name (`gpx`, `kml`, `TrainingCenterDatabase`).
    static var rootName: String { get }
    /// The format's name in messages (`GPX`, ...).
    static var label: String { get }

    /// An element starts at `depth` (the root is 1), on `line`.
    mutating func start(_ element: XMLElementStart, into sink: inout XMLRecordSink)
    /// The element at `depth` ends.
    mutating func end(_ localName: XMLName, depth: Int, into sink: inout XMLRecordSink)
    /// Character data inside the current element (only called while `wantsText`).
    mutating func characters(_ bytes: UnsafeBufferPointer<UInt8>, into sink: inout XMLRecordSink)
    /// Whether the current element's text is wanted (a time, a coordinate list).
    var wantsText: Bool { get }
    /// Why no fix came from a document that had its root (for the "no fix" warning).
    func noFixExplanation() -> String
    /// The input ended, or reading stopped: records still held back are handed on.
    mutating func finish(into sink: inout XMLRecordSink)
    /// Records skipped as not fixes, by kind (the summary's).
    var skipped: SkipTally { get }
}

extension XMLVocabulary {
    mutating func finish(into sink: inout XMLRecordSink) {}
    var skipped: SkipTally { SkipTally() }
}

/// An element's start as the vocabularies see it: its local name, depth and line, and its
/// unprefixed attributes. Views into libxml2's buffers, valid during the callback only.
struct XMLElementStart {
    var localName: XMLName
    var depth: Int
    var line: Int
    /// libxml2's SAX2 attributes: five pointers each (local name, prefix, URI, value start, value end).
    var attributes: UnsafeMutablePointer<UnsafePointer<UInt8>?>?
    var attributeCount: Int

    /// The value of the unprefixed attribute `name`, copied.
    func attribute(_ name: StaticString) -> [UInt8]? {
        guard let attributes else { return nil }
        for index in 0..<attributeCount {
            let base = index * 5
            guard attributes[base + 1] == nil, let local = attributes[base], XMLName(local).equals(name),
                let start = attributes[base + 3], let end = attributes[base + 4]
            else { continue }
            return Array(UnsafeBufferPointer(start: start, count: end - start))
        }
        return nil
    }
}

/// A local element or attribute name from libxml2 (NUL-terminated UTF-8), valid during the
/// callback that gives it.
struct XMLName {
    let pointer: UnsafePointer<UInt8>

    init(_ pointer: UnsafePointer<UInt8>) { self.pointer = pointer }

    func equals(_ literal: StaticString) -> Bool {
        strcmp(
            UnsafeRawPointer(pointer).assumingMemoryBound(to: CChar.self),
            UnsafeRawPointer(literal.utf8Start).assumingMemoryBound(to: CChar.self)) == 0
    }

    var text: String { String(cString: pointer) }
}

/// Where vocabularies put what they read.
struct XMLRecordSink {
    let sourceName: String
    var records: [FixRecord] = []
    var fixCount = 0
    /// The first time without a zone read (`ZonelessTime`).
    private(set) var zonelessTime: ZonelessTime?

    /// A time was read from `text` on `line`: noted when it is the first without a zone (KML's
    /// and TCX's `xsd:dateTime` may leave it out; GPX defines its times as UTC and notes none).
    mutating func timeRead(_ text: ArraySlice<UInt8>, line: Int) {
        guard zonelessTime == nil else { return }
        if text.withUnsafeBufferPointer({ Timestamp.lacksZone(rfc3339UTF8: $0) }) { zonelessTime = ZonelessTime(line: line, bytes: text) }
    }

    mutating func fix(_ fix: Fix, line: Int) {
        records.append(.fix(fix, line: line))
        fixCount += 1
    }

    mutating func append(_ record: FixRecord) {
        records.append(record)
        if case .fix = record { fixCount += 1 }
    }

    mutating func issue(line: Int, _ reason: String) {
        records.append(.invalid(FixReadIssue(source: sourceName, line: line, reason: reason)))
    }
}

/// Text of an element kept up to a bound (times, single coordinates): anything longer is not a
/// value of that kind anyway, and memory stays bounded whatever the document holds.
struct BoundedText {
    static let maximumLength = 128
    private(set) var bytes: [UInt8] = []
    private(set) var overflowed = false

    mutating func reset() {
        bytes.removeAll(keepingCapacity: true)
        overflowed = false
    }

    mutating func append(_ chunk: UnsafeBufferPointer<UInt8>) {
        let room = BoundedText.maximumLength - bytes.count
        if chunk.count > room { overflowed = true }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: chunk.prefix(max(room, 0))))
    }

    /// The text without surrounding XML white space.
    var trimmed: ArraySlice<UInt8> {
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) }) else {
            return []
        }
        return bytes[first...last]
    }

    /// The trimmed text for a message, shortened.
    var shown: String {
        String(decoding: trimmed.prefix(64), as: UTF8.self) + (overflowed || trimmed.count > 64 ? "…" : "")
    }

    /// The trimmed text as an RFC 3339 time; nil when it is not one (or too long to be one).
    var timestamp: Timestamp? {
        guard !overflowed else { return nil }
        return Array(trimmed).withUnsafeBufferPointer { Timestamp(rfc3339UTF8: $0) }
    }

    /// The trimmed text as a decimal number.
    var number: Double? {
        guard !overflowed else { return nil }
        return Array(trimmed).withUnsafeBufferPointer { DecimalNumber.parse($0) }
    }
}
