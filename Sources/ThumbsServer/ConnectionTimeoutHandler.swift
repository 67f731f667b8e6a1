import NIOCore
import NIOHTTP1

/// Closes a connection whose client stalls:
/// - a request head not complete within `headTimeout`, counted from when the connection opened
///   or its last response ended. The bound does not reset on every byte read, so a client
///   sending its headers a byte at a time (slowloris) cannot hold its connection forever;
/// - a request body with no byte read for `idleTimeout`.
///
/// It sits before ``MemoryHitHandler`` in the pipeline, so it sees every request and every
/// response, the ones answered on the event loop included (as ``ResponseWritten``).
/// Hummingbird's own idle timeout sees only what reaches Hummingbird, so it is not used. One timer per connection, moved lazily:
/// requests only move the deadline, and the timer, when it fires early, sets itself again for
/// what is left (arming a timer per request costs more than answering a cached hit).
final class ConnectionTimeoutHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private let headTimeout: TimeAmount
    private let idleTimeout: TimeAmount
    /// When the connection closes unless something moves it; nil while a response is under
    /// way (the server's turn, not the client's).
    private var deadline: NIODeadline?
    private var timer: (task: Scheduled<Void>, fires: NIODeadline)?
    /// Heads read minus responses ended: a pipelined head may come before the previous
    /// response ends, and then no head is awaited.
    private var requestsOpen = 0
    private var readingBody = false

    init(headTimeout: TimeAmount, idleTimeout: TimeAmount) {
        self.headTimeout = headTimeout
        self.idleTimeout = idleTimeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        move(to: .now() + headTimeout, context: context)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.task.cancel()
        timer = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            requestsOpen += 1
            readingBody = true
            move(to: .now() + idleTimeout, context: context)
        case .body:
            move(to: .now() + idleTimeout, context: context)
        case .end:
            readingBody = false
            deadline = nil
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { responseEnded(context: context) }
        context.write(data, promise: promise)
    }

    /// Says that a handler after this one wrote a whole response as bytes, past this handler.
    struct ResponseWritten {}

    func triggerUserOutboundEvent(context: ChannelHandlerContext, event: Any, promise: EventLoopPromise<Void>?) {
        guard event is ResponseWritten else {
            context.triggerUserOutboundEvent(event, promise: promise)
            return
        }
        responseEnded(context: context)
        promise?.succeed()
    }

    private func responseEnded(context: ChannelHandlerContext) {
        requestsOpen -= 1
        if requestsOpen == 0, !readingBody { move(to: .now() + headTimeout, context: context) }
    }

    /// Sets the deadline; the timer is set again only when none is pending or it would fire
    /// after the new deadline.
    private func move(to newDeadline: NIODeadline, context: ChannelHandlerContext) {
        deadline = newDeadline
        if let timer, timer.fires <= newDeadline { return }
        arm(at: newDeadline, context: context)
    }

    private func arm(at time: NIODeadline, context: ChannelHandlerContext) {
        timer?.task.cancel()
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        let task = context.eventLoop.scheduleTask(deadline: time) {
            let (handler, context) = loopBound.value
            handler.fired(context)
        }
        timer = (task, time)
    }

    private func fired(_ context: ChannelHandlerContext) {
        timer = nil
        guard let deadline else { return }
        if deadline > .now() {
            arm(at: deadline, context: context)
        } else {
            context.close(promise: nil)
        }
    }
}
