import NIOCore
import NIOHTTP1

/// Marks every request handed on to Hummingbird that does not keep its connection (HTTP/1.0
/// without `Connection: keep-alive`, or any request asking to close in other letters) with
/// `Connection: close`, the one form Hummingbird reads. Its HTTP types carry no version, so it
/// would take such a request for an HTTP/1.1 one kept alive, and the client, waiting for the
/// end of the connection to end the answer, would wait until the head timeout closed it.
/// ``MemoryHitHandler`` closes after the answers it writes itself.
final class ConnectionCloseHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var head) = unwrapInboundIn(data), !head.isKeepAlive, head.headers["connection"] != ["close"]
        else {
            context.fireChannelRead(data)
            return
        }
        head.headers.replaceOrAdd(name: "connection", value: "close")
        context.fireChannelRead(wrapInboundOut(.head(head)))
    }
}
