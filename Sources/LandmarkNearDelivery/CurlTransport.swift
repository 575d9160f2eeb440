import CCurl

/// One HTTP request as the transport sends it.
struct OutgoingRequest {
    var url: String
    var headers: [String]
    var body: String
    /// APNs: HTTP/2 only. Webhooks: HTTP/2 over TLS when offered, else HTTP/1.1.
    var requiresHTTP2: Bool
}

/// How one request ended: an HTTP status and body, or a transport error (connection refused,
/// reset, GOAWAY before an answer, TLS failure, timeout).
enum HTTPResult {
    case response(status: Int, body: [UInt8])
    case transportError(String)
}

/// libcurl's multi interface, owned here (one owner for the `CURLM*` and each `CURL*`):
/// many concurrent requests, multiplexed as HTTP/2 streams over one connection per host
/// (`CURLPIPE_MULTIPLEX`, `PIPEWAIT`, one connection a host). When a server sends GOAWAY or
/// the connection breaks, libcurl opens a new one for the next requests; the requests that got
/// no answer end as `transportError` and the caller tries them again.
///
/// Used from one thread only (the delivery thread): it is not `Sendable`.
final class CurlTransport {
    private let curl = CurlLibrary.functions
    private let multi: UnsafeMutableRawPointer
    private var transfers: [UnsafeMutableRawPointer: CurlTransfer] = [:]
    private let trusted: TrustedCertificates?

    /// libcurl must be set up once per process before threads use it; `curl_global_init` is
    /// safe to call again (it counts).
    static func initializeLibrary() throws(DeliveryError) {
        let curl = CurlLibrary.functions
        guard curl.global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK else {
            throw DeliveryError(.io, "libcurl: global initialisation failed")
        }
        guard let info = landmark_curl_version_info(curl), info.pointee.features & CURL_VERSION_HTTP2 != 0 else {
            throw DeliveryError(.io, "libcurl was built without HTTP/2 (nghttp2), which APNs requires")
        }
    }

    init(trusted: TrustedCertificates?, maximumStreams: Int) throws(DeliveryError) {
        let curl = CurlLibrary.functions
        guard let multi = curl.multi_init() else { throw DeliveryError(.io, "libcurl: cannot create a multi handle") }
        self.multi = multi
        self.trusted = trusted
        _ = landmark_curl_multi_setopt_long(curl.multi_setopt, multi, CURLMOPT_PIPELINING, Int(CURLPIPE_MULTIPLEX))
        _ = landmark_curl_multi_setopt_long(curl.multi_setopt, multi, CURLMOPT_MAX_HOST_CONNECTIONS, 1)
        _ = landmark_curl_multi_setopt_long(curl.multi_setopt, multi, CURLMOPT_MAX_CONCURRENT_STREAMS, maximumStreams)
    }

    deinit {
        for (easy, _) in transfers {
            _ = curl.multi_remove_handle(multi, easy)
        }
        transfers.removeAll()
        _ = curl.multi_cleanup(multi)
    }

    var activeCount: Int { transfers.count }

    /// Starts `request`; its result comes back from `perform` with `tag`.
    func start(_ request: OutgoingRequest, tag: Int) -> Bool {
        guard let transfer = CurlTransfer(request: request, tag: tag, trusted: trusted) else { return false }
        guard curl.multi_add_handle(multi, transfer.easy) == CURLM_OK else { return false }
        transfers[transfer.easy] = transfer
        return true
    }

    /// Waits up to `timeout` seconds for socket activity or a byte on `wakeDescriptor`, moves
    /// the transfers on, and returns those that ended.
    func perform(timeout: Double, wakeDescriptor: Int32) -> [(tag: Int, result: HTTPResult)] {
        var running: Int32 = 0
        _ = curl.multi_perform(multi, &running)
        var wait = curl_waitfd(fd: wakeDescriptor, events: Int16(CURL_WAIT_POLLIN), revents: 0)
        let milliseconds = Int32(max(0, min(timeout, 60)) * 1000)
        var finished = completed()
        if finished.isEmpty {
            _ = curl.multi_poll(multi, &wait, 1, milliseconds, nil)
            _ = curl.multi_perform(multi, &running)
            finished = completed()
        }
        return finished
    }

    private func completed() -> [(tag: Int, result: HTTPResult)] {
        var results: [(tag: Int, result: HTTPResult)] = []
        var remaining: Int32 = 0
        while let message = curl.multi_info_read(multi, &remaining) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle,
                let transfer = transfers.removeValue(forKey: easy)
            else { continue }
            let code = message.pointee.data.result
            _ = curl.multi_remove_handle(multi, easy)
            if code == CURLE_OK {
                var status = 0
                _ = landmark_curl_easy_getinfo_long(curl.easy_getinfo, easy, CURLINFO_RESPONSE_CODE, &status)
                results.append((transfer.tag, .response(status: status, body: transfer.responseBody)))
            } else {
                let text = curl.easy_strerror(code).map { String(cString: $0) } ?? "error \(code.rawValue)"
                results.append((transfer.tag, .transportError("\(text) (curl \(code.rawValue))")))
            }
        }
        return results
    }
}

/// One request in flight: the easy handle, its header list and the answer's body so far.
final class CurlTransfer {
    static let maximumBody = 64 * 1024

    private let curl = CurlLibrary.functions
    let easy: UnsafeMutableRawPointer
    let tag: Int
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private(set) var responseBody: [UInt8] = []

    init?(request: OutgoingRequest, tag: Int, trusted: TrustedCertificates?) {
        let curl = CurlLibrary.functions
        guard let easy = curl.easy_init() else { return nil }
        self.easy = easy
        self.tag = tag
        for header in request.headers {
            headerList = curl.slist_append(headerList, header)
        }
        // A header "Expect:" with no value turns off curl's "Expect: 100-continue".
        headerList = curl.slist_append(headerList, "Expect:")
        let context = Unmanaged.passUnretained(self).toOpaque()
        _ = request.url.withCString { landmark_curl_easy_setopt_pointer(curl.easy_setopt, easy, CURLOPT_URL, $0) }
        _ = landmark_curl_easy_setopt_long(curl.easy_setopt, easy, CURLOPT_POST, 1)
        _ = landmark_curl_easy_setopt_off_t(curl.easy_setopt, easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(request.body.utf8.count))
        _ = request.body.withCString { landmark_curl_easy_setopt_pointer(curl.easy_setopt, easy, CURLOPT_COPYPOSTFIELDS, $0) }
        _ = landmark_curl_easy_setopt_pointer(curl.easy_setopt, easy, CURLOPT_HTTPHEADER, headerList)
        _ = landmark_curl_easy_setopt_long(
            curl.easy_setopt, easy, CURLOPT_HTTP_VERSION,
            request.requiresHTTP2 ? CURL_HTTP_VERSION_2_0 : CURL_HTTP_VERSION_2TLS)
        _ = landmark_curl_easy_setopt_long(curl.easy_setopt, easy, CURLOPT_PIPEWAIT, 1)
        _ = landmark_curl_easy_setopt_long(curl.easy_setopt, easy, CURLOPT_NOSIGNAL, 1)
        _ = landmark_curl_easy_setopt_long(curl.easy_setopt, easy, CURLOPT_CONNECTTIMEOUT_MS, 10_000)
        _ = landmark_curl_easy_setopt_long(curl.easy_setopt, easy, CURLOPT_TIMEOUT_MS, 30_000)
        // Verification stays on, always (these are libcurl's defaults; set them all the same).
        _ = landmark_curl_easy_setopt_long(curl.easy_setopt, easy, CURLOPT_SSL_VERIFYPEER, 1)
        _ = landmark_curl_easy_setopt_long(curl.easy_setopt, easy, CURLOPT_SSL_VERIFYHOST, 2)
        _ = "http,https".withCString { landmark_curl_easy_setopt_pointer(curl.easy_setopt, easy, CURLOPT_PROTOCOLS_STR, $0) }
        _ = landmark_curl_easy_setopt_data_callback(curl.easy_setopt, easy, CURLOPT_WRITEFUNCTION) { data, size, count, context in
            guard let context, let data else { return 0 }
            let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
            let length = size * count
            if transfer.responseBody.count < CurlTransfer.maximumBody {
                let kept = min(length, CurlTransfer.maximumBody - transfer.responseBody.count)
                data.withMemoryRebound(to: UInt8.self, capacity: kept) { bytes in
                    transfer.responseBody.append(contentsOf: UnsafeBufferPointer(start: bytes, count: kept))
                }
            }
            return length
        }
        _ = landmark_curl_easy_setopt_pointer(curl.easy_setopt, easy, CURLOPT_WRITEDATA, context)
        if let trusted {
            _ = landmark_curl_easy_setopt_ssl_ctx_callback(curl.easy_setopt, easy) { _, sslContext, context in
                guard let sslContext, let context else { return CURLE_OK }
                Unmanaged<TrustedCertificates>.fromOpaque(context).takeUnretainedValue().add(to: sslContext)
                return CURLE_OK
            }
            _ = landmark_curl_easy_setopt_pointer(
                curl.easy_setopt, easy, CURLOPT_SSL_CTX_DATA, Unmanaged.passUnretained(trusted).toOpaque())
        }
    }

    deinit {
        curl.easy_cleanup(easy)
        curl.slist_free_all(headerList)
    }
}
