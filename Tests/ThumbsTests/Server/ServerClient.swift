import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1
import NIOPosix

/// An HTTP/1.1 client of the server under test, over a real loopback socket: each request on a
/// connection of its own, its answer read whole, until the answer's end or the connection's; no
/// clock races the answer, however busy the machine. Built on the same NIO codecs as the server,
/// so the tests link no HTTP client library of their own.
struct ServerClient: Sendable {
    let port: Int

    struct NoAnswer: Error, CustomStringConvertible {
        let uri: String
        var description: String { "the connection closed before an answer to \(uri)" }
    }

    func get(_ uri: String, headers: HTTPFields = [:]) async throws -> ServerResponse {
        try await execute(uri: uri, method: .get, headers: headers)
    }

    func execute(
        uri: String, method: HTTPRequest.Method, headers: HTTPFields = [:], body: ByteBuffer? = nil
    ) async throws -> ServerResponse {
        var fields = headers
        if let body { fields[.contentLength] = "\(body.readableBytes)" }
        let request = HTTPRequest(
            method: method, scheme: nil, authority: "127.0.0.1:\(port)", path: uri, headerFields: fields)
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    try channel.pipeline.syncOperations.addHandler(HTTP1ToHTTPClientCodec())
                    return try NIOAsyncChannel<HTTPResponsePart, HTTPRequestPart>(wrappingChannelSynchronously: channel)
                }
            }
        return try await channel.executeThenClose { inbound, outbound in
            try await outbound.write(.head(request))
            if let body { try await outbound.write(.body(body)) }
            try await outbound.write(.end(nil))
            var head: HTTPResponse?
            var collected = ByteBuffer()
            for try await part in inbound {
                switch part {
                case .head(let received) where received.status.kind != .informational:
                    head = received
                case .head:
                    continue
                case .body(var bytes):
                    collected.writeBuffer(&bytes)
                case .end:
                    guard let head else { throw NoAnswer(uri: request.path ?? "") }
                    return ServerResponse(head: head, body: collected)
                }
            }
            throw NoAnswer(uri: request.path ?? "")
        }
    }
}

/// An answer of the server: its head and its whole body.
struct ServerResponse: Sendable {
    let head: HTTPResponse
    let body: ByteBuffer

    var status: HTTPResponse.Status { head.status }
    var headers: HTTPFields { head.headerFields }
}
