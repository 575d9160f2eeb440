/// A device name as a dictionary key compared byte for byte (UTF-8), never by Unicode
/// equivalence as `String`'s `==` does: "café" written with U+00E9 and "cafe" + U+0301 are two
/// devices (docs/reference/fixes.md), each with its own state and notifications.
///
///     DeviceKey("caf\u{E9}") == DeviceKey("cafe\u{301}")   // false
package struct DeviceKey: Hashable, Sendable {
    package let name: String

    package init(_ name: String) { self.name = name }

    package static func == (lhs: DeviceKey, rhs: DeviceKey) -> Bool {
        lhs.name.utf8.elementsEqual(rhs.name.utf8)
    }

    package func hash(into hasher: inout Hasher) {
        var name = self.name
        name.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}
