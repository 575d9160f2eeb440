@_spi(Inlining) import LandmarkNearCore

/// The bytes of a catalog as another thread reaches them on its own: the file mapped once
/// more there, by its descriptor, or the array they were read into. Only Sendable values
/// cross threads; each thread has its own view of the bytes, and a mapping its own
/// `MappedFile`, whose pages that thread lets go of behind its scan.
///
///     let shared = SharedCatalogBytes.array(bytes)
///     shared.withBytes(from: 3, count: bytes.count - 3) { body, file in body.first }
enum SharedCatalogBytes: Sendable {
    /// A regular file, open at this descriptor until the scan that uses it has ended.
    case file(descriptor: Int32)
    case array([UInt8])

    /// `body` on the `count` bytes from `offset`, with the mapping they are in; nil when
    /// they are not there (the file is no longer that size, or cannot be mapped).
    package func withBytes<R>(from offset: Int, count: Int, _ body: (UnsafeBufferPointer<UInt8>, MappedFile?) -> R) -> R? {
        switch self {
        case .file(let descriptor):
            guard let mapped = MappedFile(descriptor: descriptor), mapped.bytes.count == offset + count else { return nil }
            return body(UnsafeBufferPointer(rebasing: mapped.bytes[offset...]), mapped)
        case .array(let array):
            guard array.count == offset + count else { return nil }
            return array.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[offset...]), nil) }
        }
    }
}
