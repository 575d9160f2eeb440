/// A device name as a dictionary key that compares and hashes its UTF-8 bytes (SPEC §3:
/// "café" with U+00E9 and "cafe" + U+0301 are two devices), where `String` itself would use
/// Unicode canonical equivalence and merge them.
///
///     DeviceKey("caf\u{E9}") == DeviceKey("cafe\u{301}")   // false
struct DeviceKey: Hashable {
    let name: String

    init(_ name: String) { self.name = name }

    static func == (lhs: DeviceKey, rhs: DeviceKey) -> Bool {
        lhs.name.utf8.count == rhs.name.utf8.count && lhs.name.utf8.elementsEqual(rhs.name.utf8)
    }

    func hash(into hasher: inout Hasher) {
        var name = name
        name.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}
