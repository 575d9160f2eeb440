/// One HTTP request as the daemon received it: method, path, the query arguments (already
/// percent-decoded by libmicrohttpd), the headers and the whole body (at most the body limit).
///
///     HTTPRequest(method: "GET", path: "/osmand", query: [("id", "phone"), ("lat", "34.0")])
package struct HTTPRequest: Sendable {
    package var method: String
    package var path: String
    /// In the order the client wrote them; a value is nil for an argument without `=`.
    package var query: [(name: String, value: String?)]
    /// Header names lowercased (HTTP names are case-insensitive).
    package var headers: [String: String]
    package var body: [UInt8]

    package init(
        method: String, path: String, query: [(name: String, value: String?)] = [],
        headers: [String: String] = [:], body: [UInt8] = []
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
    }

    /// The header `name` (any case).
    package func header(_ name: String) -> String? { headers[name.lowercased()] }

    /// The last value of the query argument `name`.
    package func argument(_ name: String) -> String? {
        query.last(where: { $0.name == name })?.value ?? nil
    }
}
