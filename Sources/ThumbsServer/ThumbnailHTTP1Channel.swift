import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1

/// Hummingbird's HTTP/1.1 child channel with the server's own handlers in front of the
/// conversion to HTTP types: ``ConnectionTimeoutHandler``, then ``MemoryHitHandler``, which
/// answers memory hits from NIO's own request and response types, then
/// ``ConnectionCloseHandler``, which tells Hummingbird which requests end their connection. A
/// hit then costs neither that conversion nor a task; everything else reaches the router as
/// with `.http1()`.
struct ThumbnailHTTP1Channel: ServerChildChannel, HTTPChannelHandler {
    typealias Value = NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>

    struct Configuration: Sendable {
        var headTimeout: TimeAmount
        var idleTimeout: TimeAmount
        var body: ConnectionTimeoutHandler.BodyLimits
        /// Bound of one header field and of all of them together.
        var maxHeaderBytes: Int
        var memoryHits: MemoryHits
        var serverName: String
        var readyAnswers: ReadyAnswersByLoop
    }

    let responder: HTTPChannelHandler.Responder
    let configuration: Configuration

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            var limits = NIOHTTPDecoderLimitConfiguration()
            limits.maxHeaderFieldSize = configuration.maxHeaderBytes
            limits.maxHeaderListSize = configuration.maxHeaderBytes
            limits.maxHeaderFieldCount = 100
            let pipeline = channel.pipeline.syncOperations
            // As Hummingbird's `.http1()`: no pipelining assistance (requests are answered in
            // order by the one task reading them), errors answered by that task. The encoder is
            // not told the requests' methods (as `configureHTTPServerPipeline` would): answers
            // written past it would leave it misaligned, and Hummingbird answers HEAD without a
            // body itself.
            try pipeline.addHandler(HTTPResponseEncoder())
            try pipeline.addHandler(
                ByteToMessageHandler(HTTPRequestDecoder(leftOverBytesStrategy: .dropBytes, limitConfiguration: limits)))
            try pipeline.addHandler(
                ConnectionTimeoutHandler(
                    headTimeout: configuration.headTimeout, idleTimeout: configuration.idleTimeout,
                    body: configuration.body))
            try pipeline.addHandler(
                MemoryHitHandler(
                    hits: configuration.memoryHits, serverName: configuration.serverName,
                    readyAnswers: configuration.readyAnswers))
            try pipeline.addHandler(ConnectionCloseHandler())
            try pipeline.addHandler(HTTP1ToHTTPServerCodec(secure: false))
            try pipeline.addHandler(HTTPConnectionStateHandler(idleTimeout: nil, logger: logger))
            return try NIOAsyncChannel(
                wrappingChannelSynchronously: channel, configuration: .init(isOutboundHalfClosureEnabled: true))
        }
    }

    func handle(value asyncChannel: Value, logger: Logger) async {
        await handleHTTP(asyncChannel: asyncChannel, logger: logger)
    }
}
