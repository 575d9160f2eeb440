#if canImport(Glibc)
import Glibc
@_spi(Inlining) import LandmarkNearCore
#endif

/// Where `serve` listens: `HOST:PORT` with an IPv4 address, `[IPv6]:PORT`, or a host name
/// resolved once at start (`localhost:8083`). Port 0 lets the system choose a free port.
///
///     let address = try ListenAddress(parsing: "127.0.0.1:8083")
///     address.isLoopback   // true
package struct ListenAddress: Sendable, CustomStringConvertible {
    /// The text as given.
    package var text: String
    /// The host part as given (without IPv6 brackets).
    package var host: String
    package var port: UInt16
    /// A `sockaddr_in` or `sockaddr_in6`, as bytes.
    package var socketAddress: [UInt8]
    package var isIPv6: Bool

    package init(parsing text: String) throws(ServerError) {
        self.text = text
        guard let colon = text.lastIndex(of: ":") else {
            throw .usage("\(TerminalText.singleQuoted(text)) is not HOST:PORT (e.g. 127.0.0.1:8083)", .listen)
        }
        var host = String(text[..<colon])
        let portText = text[text.index(after: colon)...]
        guard !portText.isEmpty, portText.allSatisfy(\.isASCII), let port = UInt16(portText) else {
            throw .usage("port \(TerminalText.singleQuoted(String(portText))) is not a number in 0...65535", .listen)
        }
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty else { throw .usage("missing host in \(TerminalText.singleQuoted(text)) (e.g. 127.0.0.1:\(port))", .listen) }
        self.host = host
        self.port = port

        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICSERV
        var results: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &results)
        guard status == 0, let first = results else {
            throw .usage("cannot resolve host \(TerminalText.singleQuoted(host)): \(String(cString: gai_strerror(status)))", .listen)
        }
        defer { freeaddrinfo(results) }
        // The first IPv4 answer when there is one ("localhost" is 127.0.0.1 first on Debian).
        var chosen = first
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let entry = cursor {
            if entry.pointee.ai_family == AF_INET { chosen = entry; break }
            cursor = entry.pointee.ai_next
        }
        let length = Int(chosen.pointee.ai_addrlen)
        socketAddress = Array(UnsafeRawBufferPointer(start: chosen.pointee.ai_addr, count: length))
        isIPv6 = chosen.pointee.ai_family == AF_INET6
    }

    /// 127.0.0.0/8, ::1, or an IPv4-mapped 127.x address.
    package var isLoopback: Bool {
        socketAddress.withUnsafeBytes { raw in
            if isIPv6 {
                let address = raw.loadUnaligned(as: sockaddr_in6.self).sin6_addr
                let bytes = withUnsafeBytes(of: address) { Array($0) }
                if bytes[0..<15].allSatisfy({ $0 == 0 }) && bytes[15] == 1 { return true }
                return bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF && bytes[12] == 127
            }
            let address = raw.loadUnaligned(as: sockaddr_in.self).sin_addr.s_addr
            return withUnsafeBytes(of: address) { $0[0] } == 127
        }
    }

    package var description: String { isIPv6 ? "[\(host)]:\(port)" : "\(host):\(port)" }
}
