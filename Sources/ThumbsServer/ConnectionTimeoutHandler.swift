import NIOCore
import NIOHTTP1

/// Closes a connection whose client stalls:
/// - a request head not complete within `headTimeout`, counted from when the connection opened
///   or its last response ended. The bound does not reset on every byte read, so a client
///   sending its headers a byte at a time (slowloris) cannot hold its connection forever;
/// - a request body not complete within `body.timeout` of its head, or slower than
///   `body.minimumRate` bytes a second on average once its first ``BodyLimits/grace`` has
///   passed, or with no byte read for `idleTimeout`. Each byte moving a deadline would let a
///   client trickling a body a byte at a time hold its connection, and a task, for ever.
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

    /// How long a request body may take, and how slowly it may come.
    struct BodyLimits {
        var timeout: TimeAmount
        /// Bytes a second, on average from the head's end; 0 for no minimum.
        var minimumRate: Int
        /// What a body may take before its rate counts: its first bytes may wait on the
        /// client (a page gathering a list, a slow start).
        static let grace = TimeAmount.seconds(5)
    }

    private let headTimeout: TimeAmount
    private let idleTimeout: TimeAmount
    private let body: BodyLimits
    /// When the connection closes unless something moves it; nil while a response is under
    /// way (the server's turn, not the client's).
    private var deadline: NIODeadline?
    private var timer: (task: Scheduled<Void>, fires: NIODeadline)?
    /// Heads read minus responses ended: a pipelined head may come before the previous
    /// response ends, and then no head is awaited.
    private var requestsOpen = 0
    /// When the body being read began (its head's end), and its bytes read so far.
    private var bodyRead: (started: NIODeadline, bytes: Int)?

    init(headTimeout: TimeAmount, idleTimeout: TimeAmount, body: BodyLimits) {
        self.headTimeout = headTimeout
        self.idleTimeout = idleTimeout
        self.body = body
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
            let now = NIODeadline.now()
            bodyRead = (now, 0)
            move(to: bodyDeadline(now: now, started: now, bytes: 0), context: context)
        case .body(let bytes):
            if let (started, read) = bodyRead {
                bodyRead = (started, read + bytes.readableBytes)
                // Bytes move the deadline later only so far as the body's own bounds allow.
                move(
                    to: bodyDeadline(now: .now(), started: started, bytes: read + bytes.readableBytes), context: context
                )
            }
        case .end:
            bodyRead = nil
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
        if requestsOpen == 0, bodyRead == nil { move(to: .now() + headTimeout, context: context) }
    }

    /// When the body begun at `started` and `bytes` long so far closes the connection unless
    /// more comes: the earliest of its idle bound, its whole bound and what its rate allows.
    private func bodyDeadline(now: NIODeadline, started: NIODeadline, bytes: Int) -> NIODeadline {
        var deadline = min(now + idleTimeout, started + body.timeout)
        if body.minimumRate > 0 {
            // Each byte buys 1/minimumRate seconds; past the whole bound they buy nothing more.
            let bought = min(Double(bytes) / Double(body.minimumRate), Double(body.timeout.nanoseconds) / 1e9)
            deadline = min(deadline, started + BodyLimits.grace + .nanoseconds(Int64(bought * 1e9)))
        }
        return deadline
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
