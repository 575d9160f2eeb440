/// The problems of a catalog being loaded, gathered instead of stopping at the first: a refused
/// catalog lists up to `listed` of them (docs/reference/catalogs.md), each naming its entry, id and place in the
/// file, then says how many more there were.
package struct CatalogProblems {
    static let listed = 20

    let source: String
    private(set) var problems: [CatalogError] = []
    private(set) var count = 0

    package init(source: String) { self.source = source }

    package var isEmpty: Bool { count == 0 }

    package mutating func add(_ problem: CatalogError) {
        count += 1
        if problems.count < CatalogProblems.listed { problems.append(problem) }
    }

    /// One error for all of them, each with its place in the file when `locate` knows it.
    func error(locate: (Int) -> String?) -> CatalogError? {
        // In file order (a row's format problems were found before the catalog's checks).
        let problems = self.problems.enumerated().sorted { ($0.element.entry ?? -1, $0.offset) < ($1.element.entry ?? -1, $1.offset) }
            .map(\.element)
        guard var first = problems.first else { return nil }
        func located(_ problem: CatalogError) -> CatalogError {
            var problem = problem
            if let entry = problem.entry, problem.location == nil { problem.location = locate(entry) }
            return problem
        }
        first = located(first)
        first.otherProblems = problems.dropFirst().map(located)
        first.unlistedProblems = count - problems.count
        return first
    }
}

/// Where the entries of a JSON catalog start, as `line L, column C`: the elements of the top
/// array (tutorial shape), or of the root object's `features` array (GeoJSON). A structural
/// scan (strings and nesting only) of a document that has already parsed.
package enum JSONEntryLocations {
    package static func offsets(in bytes: [UInt8]) -> [Int] {
        var offsets: [Int] = []
        var depth = 0
        var inString = false
        var escaped = false
        var keyStart = -1
        var lastKey: ArraySlice<UInt8> = []
        /// The depth whose array elements are entries: 1 for a top array; 2 inside `features`.
        var entryDepth = -1
        var expectingElement = false
        for (offset, byte) in bytes.enumerated() {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                    if depth == 1, keyStart >= 0 { lastKey = bytes[keyStart..<offset] }
                }
                continue
            }
            if expectingElement, !ASCIIBlanks.whitespace.contains(byte), byte != UInt8(ascii: "]") {
                offsets.append(offset)
                expectingElement = false
            }
            switch byte {
            case UInt8(ascii: "\""):
                inString = true
                keyStart = offset + 1
            case UInt8(ascii: "["):
                depth += 1
                if depth == 1, offset == firstByte(bytes) { entryDepth = 1 }
                if depth == 2, entryDepth == -1, Array(lastKey) == Array("features".utf8) { entryDepth = 2 }
                if depth == entryDepth { expectingElement = true }
            case UInt8(ascii: "{"):
                depth += 1
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                if depth == entryDepth, byte == UInt8(ascii: "]") { entryDepth = -2 }
                depth -= 1
            case UInt8(ascii: ","):
                if depth == entryDepth { expectingElement = true }
            default:
                break
            }
        }
        return offsets
    }

    private static func firstByte(_ bytes: [UInt8]) -> Int {
        bytes.firstIndex { !ASCIIBlanks.whitespace.contains($0) } ?? 0
    }

    package static func lineAndColumn(_ bytes: [UInt8], _ offset: Int, firstLine: Int = 1) -> String {
        var line = firstLine
        var lineStart = 0
        for index in 0..<offset where bytes[index] == 0x0A {
            line += 1
            lineStart = index + 1
        }
        return "line \(line), column \(offset - lineStart + 1)"
    }
}
