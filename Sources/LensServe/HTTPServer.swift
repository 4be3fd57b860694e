internal import CMicroHTTPD
import Foundation
import LensModel

/// One HTTP request as the server hands it to its handler: the body is whole, at most
/// ``HTTPServer/bodyLimit`` bytes.
package struct HTTPRequest: Sendable {
    package var method: String
    /// The path without the query, e.g. `/api/render`.
    package var path: String
    /// The query's arguments, decoded.
    package var query: [String: String]
    /// The headers, names in lower case.
    package var headers: [String: String]
    package var body: Data

    package init(
        method: String, path: String, query: [String: String] = [:], headers: [String: String] = [:],
        body: Data = Data()
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
    }
}

/// What the handler answers: a status, headers and a body.
package struct HTTPResponse: Sendable {
    package var status: Int
    package var headers: [(name: String, value: String)]
    package var body: Data

    package init(status: Int, contentType: String, body: Data, headers: [(name: String, value: String)] = []) {
        self.status = status
        self.headers = [("Content-Type", contentType)] + headers
        self.body = body
    }

    /// `object` as JSON.
    package static func json(_ status: Int, _ object: [String: Any]) -> HTTPResponse {
        let body = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        return HTTPResponse(status: status, contentType: "application/json", body: body)
    }

    /// An error as JSON: `{"error": message}` and any more fields.
    package static func error(_ status: Int, _ message: String, _ more: [String: Any] = [:]) -> HTTPResponse {
        json(status, more.merging(["error": message]) { first, _ in first })
    }
}

/// Why the server could not start.
package struct ServerError: Error, CustomStringConvertible {
    package let description: String
}

/// A small HTTP server on libmicrohttpd: a thread per connection; each request first shown to
/// `admit` without its body (a refusal is answered before the body is read), bodies buffered
/// up to ``bodyLimit`` (a larger one is answered 413, at once when its `Content-Length` says so),
/// a connection idle for ``idleTimeout`` seconds or still sending after ``uploadDeadline``
/// closed. The handler runs on the connection's thread and may block (a render).
package final class HTTPServer: @unchecked Sendable {
    /// The largest request body read.
    package static let bodyLimit = 1 << 20
    /// Seconds a connection may stay idle, including mid-request.
    package static let idleTimeout: UInt32 = 10
    /// Seconds a request's body may take to arrive, however steadily.
    package static let uploadDeadline = 30.0
    /// The answer to a body over ``bodyLimit``.
    static let bodyTooLarge = HTTPResponse.error(413, "the request body is over \(bodyLimit) bytes")
    /// Connections served at once; more wait in the listen queue.
    package static let connectionLimit: UInt32 = 64
    /// The malloc arenas a serving process's threads share (glibc's default is eight per core).
    static let mallocArenas: Int32 = 2

    /// Makes this process's threads share ``mallocArenas`` malloc arenas, so that its resident
    /// size stays flat under many short connections, each on a thread of its own. A choice for
    /// the whole process: its command makes it before any thread starts.
    package static func shareMallocArenas() {
        liquidlens_share_malloc_arenas(mallocArenas)
    }

    /// The port listened on (the system's choice when 0 was asked for).
    package private(set) var port: UInt16 = 0
    /// The address listened on, as given.
    package let host: String
    fileprivate let admit: @Sendable (HTTPRequest) -> HTTPResponse?
    fileprivate let handler: @Sendable (HTTPRequest) -> HTTPResponse
    private var daemon: OpaquePointer?

    /// Listens on `host` (an IPv4 or IPv6 address, or `localhost`; `::` takes IPv4 too) and
    /// `port` (0: any free one). `admit` sees each request without its body and may refuse it;
    /// `handler` answers the whole request.
    package init(
        host: String, port: UInt16, admit: @escaping @Sendable (HTTPRequest) -> HTTPResponse? = { _ in nil },
        handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse
    ) throws {
        self.host = host
        self.admit = admit
        self.handler = handler
        var flags = UInt32(MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_THREAD_PER_CONNECTION.rawValue)
        let address = try Self.socketAddress(host: host, port: port)
        if address.count == MemoryLayout<sockaddr_in6>.size {
            flags |= UInt32((host == "::" ? MHD_USE_DUAL_STACK : MHD_USE_IPv6).rawValue)
        }
        let started: OpaquePointer? = address.withUnsafeBytes { addressBytes in
            let options = [
                MHD_OptionItem(option: MHD_OPTION.CONNECTION_TIMEOUT, value: Int(Self.idleTimeout), ptr_value: nil),
                MHD_OptionItem(option: MHD_OPTION.CONNECTION_LIMIT, value: Int(Self.connectionLimit), ptr_value: nil),
                MHD_OptionItem(
                    option: MHD_OPTION.NOTIFY_COMPLETED, value: unsafeBitCast(requestCompleted, to: Int.self),
                    ptr_value: nil),
                MHD_OptionItem(
                    option: MHD_OPTION.SOCK_ADDR, value: 0,
                    ptr_value: UnsafeMutableRawPointer(mutating: addressBytes.baseAddress)),
                MHD_OptionItem(option: MHD_OPTION.END, value: 0, ptr_value: nil),
            ]
            return options.withUnsafeBufferPointer {
                liquidlens_mhd_start(
                    flags, port, answerRequest, Unmanaged.passUnretained(self).toOpaque(), $0.baseAddress)
            }
        }
        guard let started else {
            throw ServerError(
                description:
                    "cannot listen on \(host) port \(port): \(FileAccess.reason(errno)) (is another server on that port? --port 0 picks a free one)"
            )
        }
        daemon = started
        self.port = liquidlens_mhd_port(started)
    }

    /// Stops listening and waits for the connections' threads to end.
    package func stop() {
        guard let daemon else { return }
        self.daemon = nil
        MHD_stop_daemon(daemon)
    }

    deinit { stop() }

    /// The `sockaddr_in` or `sockaddr_in6` bytes of `host`:`port`.
    private static func socketAddress(host: String, port: UInt16) throws -> [UInt8] {
        let name = host == "localhost" ? "127.0.0.1" : host
        var ipv4 = sockaddr_in()
        ipv4.sin_family = sa_family_t(AF_INET)
        ipv4.sin_port = port.bigEndian
        if inet_pton(AF_INET, name, &ipv4.sin_addr) == 1 {
            return withUnsafeBytes(of: ipv4) { Array($0) }
        }
        var ipv6 = sockaddr_in6()
        ipv6.sin6_family = sa_family_t(AF_INET6)
        ipv6.sin6_port = port.bigEndian
        if inet_pton(AF_INET6, name, &ipv6.sin6_addr) == 1 {
            return withUnsafeBytes(of: ipv6) { Array($0) }
        }
        throw ServerError(description: "--host \(host): not an IP address (e.g. 127.0.0.1, 0.0.0.0 or ::1)")
    }
}

/// A request's body as it arrives, kept between the handler's calls for one request.
private final class PendingBody {
    var data = Data()
    var tooLarge = false
    let started = Date()
}

/// libmicrohttpd's access handler: called first with no body context (one is made), then with
/// each piece of the body, then once with none left, when the request is answered.
private let answerRequest: MHD_AccessHandlerCallback = {
    context, connection, url, method, _, uploadData, uploadSize, requestContext in
    guard let context, let connection, let requestContext, let uploadSize else { return MHD_Result.NO }
    let server = Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
    func head() -> HTTPRequest {
        HTTPRequest(
            method: method.map { String(cString: $0) } ?? "GET", path: url.map { String(cString: $0) } ?? "/",
            query: connectionValues(connection, MHD_ValueKind.GET_ARGUMENT_KIND),
            headers: connectionValues(connection, MHD_ValueKind.HEADER_KIND))
    }
    guard let stored = requestContext.pointee else {
        let head = head()
        if let length = head.headers["content-length"].flatMap(Int.init), length > HTTPServer.bodyLimit {
            return queue(HTTPServer.bodyTooLarge, on: connection)
        }
        if let refusal = server.admit(head) { return queue(refusal, on: connection) }
        requestContext.pointee = Unmanaged.passRetained(PendingBody()).toOpaque()
        return MHD_Result.YES
    }
    let pending = Unmanaged<PendingBody>.fromOpaque(stored).takeUnretainedValue()
    if uploadSize.pointee > 0 {
        // A body that trickles in is dropped: the connection is closed.
        guard Date().timeIntervalSince(pending.started) < HTTPServer.uploadDeadline else { return MHD_Result.NO }
        if !pending.tooLarge, let uploadData {
            if pending.data.count + uploadSize.pointee > HTTPServer.bodyLimit {
                pending.tooLarge = true
                pending.data = Data()
            } else {
                pending.data.append(
                    UnsafeRawPointer(uploadData).assumingMemoryBound(to: UInt8.self), count: uploadSize.pointee)
            }
        }
        uploadSize.pointee = 0
        return MHD_Result.YES
    }
    var request = head()
    request.body = pending.data
    let response =
        pending.tooLarge ? HTTPServer.bodyTooLarge : server.handler(request)
    return queue(response, on: connection)
}

/// Frees the body context of a request that ended, answered or not (a client that went away).
private let requestCompleted: MHD_RequestCompletedCallback = { _, _, requestContext, _ in
    guard let requestContext, let stored = requestContext.pointee else { return }
    Unmanaged<PendingBody>.fromOpaque(stored).release()
    requestContext.pointee = nil
}

/// The values of one kind (headers, query arguments) of a connection's request; header names in lower case.
private func connectionValues(_ connection: OpaquePointer, _ kind: MHD_ValueKind) -> [String: String] {
    final class Collected { var values: [String: String] = [:] }
    let collected = Collected()
    let lowercasesNames = kind == MHD_ValueKind.HEADER_KIND
    _ = withExtendedLifetime(collected) {
        MHD_get_connection_values(
            connection, kind,
            { context, _, key, value in
                guard let context, let key else { return MHD_Result.YES }
                let collected = Unmanaged<Collected>.fromOpaque(context).takeUnretainedValue()
                collected.values[String(cString: key)] = value.map { String(cString: $0) } ?? ""
                return MHD_Result.YES
            }, Unmanaged.passUnretained(collected).toOpaque())
    }
    guard lowercasesNames else { return collected.values }
    return Dictionary(collected.values.map { ($0.key.lowercased(), $0.value) }) { first, _ in first }
}

/// Hands `response` to libmicrohttpd for `connection`, which copies it.
private func queue(_ response: HTTPResponse, on connection: OpaquePointer) -> MHD_Result {
    let made = response.body.withUnsafeBytes { bytes in
        MHD_create_response_from_buffer(
            bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), MHD_ResponseMemoryMode.RESPMEM_MUST_COPY)
    }
    guard let made else { return MHD_Result.NO }
    defer { MHD_destroy_response(made) }
    for header in response.headers {
        _ = MHD_add_response_header(made, header.name, header.value)
    }
    return MHD_queue_response(connection, UInt32(response.status), made)
}
