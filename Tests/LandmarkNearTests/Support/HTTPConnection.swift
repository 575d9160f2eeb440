import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A minimal HTTP/1.1 test client over one TCP connection to 127.0.0.1: it writes requests
/// byte for byte as given (so tests can send what no well-behaved client would: invalid UTF-8,
/// a header cut in the middle) and reads answers with `Content-Length` bodies, keep-alive.
final class HTTPConnection {
    struct Reply {
        var status: Int
        var headers: [String: String]
        var body: String
    }

    enum Failure: Error {
        case connect(Int32)
        case closed, timeout
        case malformed(String)
    }

    private let socket: Int32
    private var buffered: [UInt8] = []

    /// - Parameter source: the local address to connect from (`127.0.0.2`: another client, as
    ///   the server sees it; every 127.x.y.z is the loopback interface on Linux).
    init(port: Int, timeout: TimeInterval = 20, from source: String? = nil) throws {
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(source)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else {
                let code = errno
                close(socket)
                throw Failure.connect(code)
            }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            let code = errno
            close(socket)
            throw Failure.connect(code)
        }
        setTimeout(timeout)
    }

    deinit { close(socket) }

    func setTimeout(_ seconds: TimeInterval) {
        var value = timeval(tv_sec: Int(seconds), tv_usec: Int((seconds - seconds.rounded(.down)) * 1e6))
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
    }

    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written <= 0 { throw Failure.closed }
            offset += written
        }
    }

    func send(_ text: String) throws { try send(Array(text.utf8)) }

    /// Sends one request (Host and Content-Length added) and reads its answer.
    func request(_ method: String, _ target: String, headers: [(String, String)] = [], body: [UInt8] = []) throws -> Reply {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if !body.isEmpty || method == "POST" { head += "Content-Length: \(body.count)\r\n" }
        try send(Array((head + "\r\n").utf8) + body)
        return try readReply()
    }

    func readReply() throws -> Reply {
        var headerEnd: Int?
        while headerEnd == nil {
            if let range = findHeaderEnd() { headerEnd = range; break }
            try fill()
        }
        let head = String(decoding: buffered[..<headerEnd!], as: UTF8.self)
        buffered.removeFirst(headerEnd! + 4)
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else { throw Failure.malformed(head) }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let length = Int(headers["content-length"] ?? "0") ?? 0
        while buffered.count < length { try fill() }
        let body = String(decoding: buffered[..<length], as: UTF8.self)
        buffered.removeFirst(length)
        return Reply(status: status, headers: headers, body: body)
    }

    /// True when the server closes the connection within `timeout` (reading and dropping
    /// whatever it sends first).
    func closesWithin(_ timeout: TimeInterval) -> Bool {
        setTimeout(timeout)
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(socket, &chunk, chunk.count, 0)
            if count == 0 { return true }
            if count < 0 { return errno == ECONNRESET }
        }
    }

    private func findHeaderEnd() -> Int? {
        guard buffered.count >= 4 else { return nil }
        for i in 0...(buffered.count - 4) where buffered[i] == 13 && buffered[i + 1] == 10 && buffered[i + 2] == 13 && buffered[i + 3] == 10
        {
            return i
        }
        return nil
    }

    private func fill() throws {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = recv(socket, &chunk, chunk.count, 0)
        if count == 0 { throw Failure.closed }
        if count < 0 { throw errno == EAGAIN || errno == EWOULDBLOCK ? Failure.timeout : Failure.closed }
        buffered.append(contentsOf: chunk[..<count])
    }
}
