import HTTPTypes
import NIOHTTPTypes

import NIOCore

/// Closes a connection that takes longer than `timeout` to send a request's head, counted from
/// when it opened or its last response ended. Hummingbird's idle timeout resets on every byte
/// read, so a client sending its headers a byte at a time (slowloris) would hold its connection
/// forever; this bound does not reset until the head is complete.
final class RequestHeadTimeoutHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let timeout: TimeAmount
    private var deadline: Scheduled<Void>?
    /// Heads read minus responses ended: a pipelined head may come before the previous
    /// response ends, and then no head is awaited.
    private var requestsOpen = 0

    init(timeout: TimeAmount) {
        self.timeout = timeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        arm(context)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head = unwrapInboundIn(data) {
            requestsOpen += 1
            deadline?.cancel()
            deadline = nil
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) {
            requestsOpen -= 1
            if requestsOpen == 0 { arm(context) }
        }
        context.write(data, promise: promise)
    }

    private func arm(_ context: ChannelHandlerContext) {
        deadline?.cancel()
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        deadline = context.eventLoop.scheduleTask(in: timeout) {
            loopBound.value.close(promise: nil)
        }
    }
}
