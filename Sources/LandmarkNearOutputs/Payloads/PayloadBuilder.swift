@_spi(Inlining) import LandmarkNearCore

/// Builds payloads for one set of `PayloadOptions`: the fixed parts of the JSON text are
/// written once, so each payload is a few appends (the watch engine calls it per notification).
///
///     let builder = PayloadBuilder(options: PayloadOptions(radius: try Length(parsing: "8km")))
///     builder.json(for: LandmarkCatalog.embedded[0], index: 0)
///     // {"aps":{"alert":{"title":"Turtle Rock","body":"You are within 8 km of Turtle Rock."},...
///
/// Names that would push the payload over 4096 bytes are cut to the longest prefix of whole
/// grapheme clusters that fits, followed by "…", in both title and body; the size counts the
/// serialized bytes, escapes included.
package struct PayloadBuilder: Sendable {
    package let options: PayloadOptions
    /// Everything before the title's text.
    private let head: String
    /// Between the title's text and the body's name.
    private let middle: String
    /// After the body's name, up to the index.
    private let tail: String
    private let fixedBytes: Int

    package init(options: PayloadOptions) {
        self.options = options
        var head = "{"
        if let bundleID = options.bundleID {
            head += "\"Simulator Target Bundle\":"
            JSONWriter.appendString(bundleID, to: &head)
            head += ","
        }
        head += "\"aps\":{\"alert\":{\"title\":\""
        var middle = "\",\"body\":\"You are within "
        // The phrase comes from a parsed length ("5 miles"); escape it all the same.
        let phrase = JSONWriter.quoted(options.radius.phrase)
        middle += phrase.dropFirst().dropLast()
        middle += " of "
        var tail = ".\"},\"category\":"
        JSONWriter.appendString(APNsPayload.category, to: &tail)
        tail += ",\"thread-id\":"
        JSONWriter.appendString(options.threadID, to: &tail)
        tail += "},\"landmarkIndex\":"
        self.head = head
        self.middle = middle
        self.tail = tail
        self.fixedBytes = head.utf8.count + middle.utf8.count + tail.utf8.count + 1
    }

    /// The payload for `landmark` at `index`; see `APNsPayload.json(for:index:options:)`.
    /// A landmark with its own radius (docs/reference/catalogs.md) gets its own phrase ("2 km", "300 m").
    package func json(for landmark: Landmark, index: Int) -> String {
        json(name: landmark.name, radius: landmark.radius, index: index)
    }

    /// `json(for:index:)` of a landmark named `name` with its own radius `radius` (nil: the
    /// options').
    package func json(name: String, radius: Length?, index: Int) -> String {
        if let radius, radius != options.radius {
            var own = options
            own.radius = radius
            return PayloadBuilder(options: own).json(name: name, radius: nil, index: index)
        }
        return (try? make(name: name, index: index)) ?? assemble(escapedName: APNsPayload.ellipsis, index: index)
    }

    /// The payload for a landmark named `name` at `index`, shortening the name when needed.
    /// Throws when even the name "…" does not fit.
    package func make(name: String, index: Int) throws(PayloadError) -> String {
        let overhead = overheadBytes(index: index)
        if overhead + 2 * PayloadBuilder.escapedSize(of: name) <= APNsPayload.maximumBytes {
            return assemble(escapedName: PayloadBuilder.escaped(name), index: index)
        }
        let ellipsisBytes = APNsPayload.ellipsis.utf8.count
        let budget = (APNsPayload.maximumBytes - overhead) / 2 - ellipsisBytes
        guard budget >= 0 else {
            throw PayloadError(minimumBytes: overhead + 2 * ellipsisBytes)
        }
        return assemble(
            escapedName: PayloadBuilder.escapedPrefix(of: name, maximumBytes: budget) + APNsPayload.ellipsis,
            index: index)
    }

    /// Bytes of the payload besides the name's two copies, for a given index.
    func overheadBytes(index: Int) -> Int {
        fixedBytes + String(index).utf8.count
    }

    private func assemble(escapedName: String, index: Int) -> String {
        var out = head
        out.reserveCapacity(fixedBytes + 2 * escapedName.utf8.count + 20)
        out += escapedName
        out += middle
        out += escapedName
        out += tail
        out += String(index)
        out += "}"
        return out
    }

    /// `text` escaped for the inside of a JSON string literal (no quotes), as `JSONWriter` does.
    static func escaped(_ text: String) -> String {
        if !text.utf8.contains(where: needsEscape) { return text }
        let quoted = JSONWriter.quoted(text)
        return String(quoted.dropFirst().dropLast())
    }

    /// The escaped form of the longest prefix of whole grapheme clusters of `name` whose escaped
    /// form is at most `maximumBytes` long. Escaping works scalar by scalar, so the escaped
    /// prefix's size is the sum of the clusters' escaped sizes; the walk stops at the budget.
    static func escapedPrefix(of name: String, maximumBytes: Int) -> String {
        var used = 0
        var end = name.startIndex
        while end < name.endIndex {
            let next = name.index(after: end)
            var size = 0
            for scalar in name.unicodeScalars[end..<next] { size += escapedSize(of: scalar) }
            if used + size > maximumBytes { break }
            used += size
            end = next
        }
        return escaped(String(name[..<end]))
    }

    /// Bytes of `text` once escaped, without building the escaped text.
    static func escapedSize(of text: String) -> Int {
        if !text.utf8.contains(where: needsEscape) { return text.utf8.count }
        var size = 0
        for scalar in text.unicodeScalars { size += escapedSize(of: scalar) }
        return size
    }

    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0x7F
    }

    /// Bytes `JSONWriter` writes for one scalar inside a string literal.
    static func escapedSize(of scalar: Unicode.Scalar) -> Int {
        switch scalar.value {
        case 0x22, 0x5C, 0x0A, 0x0D, 0x09, 0x08, 0x0C: return 2
        case 0x00..<0x20, 0x7F: return 6
        default: return UTF8.width(scalar)
        }
    }
}
