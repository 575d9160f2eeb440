@_spi(Inlining) import LandmarkNearCore

/// The answer to one request: status, content type, extra headers and body.
///
///     HTTPResponse.text(400, "bad request: latitude 91.0 is outside [-90, 90]\n")
package struct HTTPResponse: Sendable, Equatable {
    package var status: Int
    package var contentType: String
    package var headers: [Header]
    package var body: [UInt8]

    package struct Header: Sendable, Equatable {
        package var name: String
        package var value: String
    }

    package init(status: Int, contentType: String, headers: [Header] = [], body: [UInt8]) {
        self.status = status
        self.contentType = contentType
        self.headers = headers
        self.body = body
    }

    package static func text(_ status: Int, _ text: String) -> HTTPResponse {
        HTTPResponse(status: status, contentType: "text/plain; charset=utf-8", body: Array(text.utf8))
    }

    package static func json(_ status: Int, _ json: String) -> HTTPResponse {
        HTTPResponse(status: status, contentType: "application/json", body: Array(json.utf8))
    }

    /// A client error with its reason in a small JSON object: `{"error":"..."}`.
    package static func problem(_ status: Int, _ reason: String) -> HTTPResponse {
        var json = "{\"error\":"
        JSONWriter.appendString(reason, to: &json)
        return .json(status, json + "}\n")
    }

    package func adding(header name: String, _ value: String) -> HTTPResponse {
        var copy = self
        copy.headers.append(Header(name: name, value: value))
        return copy
    }
}
