import NIOCore
import NIOHTTP1

/// Answers a thumbnail request on the event loop that read it when the answer needs nothing
/// but memory: the image is in this loop's ``ReadyAnswers`` or the manager's memory tier (a
/// 200, or a 304 when the client's copy is current). Such an answer costs a few microseconds;
/// handing the request to a task, routing it and handing the response back costs several
/// times that, and would cap cached hits well below what a static file server answers
/// (docs/BENCHMARKS.md, Serving). The answer is written as bytes encoded ahead (its status
/// line and fields kept with the image, the `Date` once a second), straight to the
/// connection, past the response encoder: encoding the same fields again for every hit cost
/// a third of what a hit costs here.
///
/// Every other request goes on to Hummingbird unchanged: other routes, store hits, misses,
/// opportunistic delivery, anything to answer with an error (a missing token, an unknown
/// asset), and any request while the client is not reading its answers (Hummingbird waits for
/// a slow reader; this handler does not). What it answers, and how, is decided by the server's
/// one route table, the middleware's refusal and counting, and the route's own reading of the
/// request (``MemoryHits``): this handler only writes the answer.
///
/// HTTP/1.1 answers requests in order, so a request is answered here only when no earlier one
/// of the connection is still with Hummingbird; the encoder is then between two responses.
final class MemoryHitHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private let hits: MemoryHits
    private let readyAnswers: ReadyAnswersByLoop
    /// This loop's answers, from when the handler joins a pipeline.
    private var ready: ReadyAnswers?
    /// The response encoder's place in the pipeline: bytes written there go to the connection.
    private var encoder: ChannelHandlerContext?
    /// Requests handed on whose response has not ended.
    private var handedOn = 0
    /// The answer to the request being read (its status line and fields up to
    /// ``ResponseFieldsEnd``, and its body), written once its end is read.
    private var pending: (head: ByteBuffer, body: ByteBuffer?, closes: Bool)?
    private var needsFlush = false
    private var fieldsEnd: ResponseFieldsEnd

    init(hits: MemoryHits, serverName: String, readyAnswers: ReadyAnswersByLoop) {
        self.hits = hits
        self.readyAnswers = readyAnswers
        fieldsEnd = ResponseFieldsEnd(serverName: serverName)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        ready = readyAnswers.answers(of: context.eventLoop)
        encoder = try? context.pipeline.syncOperations.context(handlerType: HTTPResponseEncoder.self)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        encoder = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let request):
            if handedOn == 0, context.channel.isWritable, encoder != nil, let ready,
                let answer = hits.answer(to: request, ready: ready)
            {
                pending = (answer.head, answer.body, !request.isKeepAlive)
                return
            }
            handedOn += 1
        case .body:
            if pending != nil { return }
        case .end:
            if let (head, body, closes) = pending {
                pending = nil
                write(head: head, body: body, closing: closes, context: context)
                return
            }
        }
        context.fireChannelRead(data)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        // Answers to requests read together (pipelined) leave in one write.
        if needsFlush {
            needsFlush = false
            context.flush()
        }
        context.fireChannelReadComplete()
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { handedOn -= 1 }
        context.write(data, promise: promise)
    }

    private func write(head: ByteBuffer, body: ByteBuffer?, closing: Bool, context: ChannelHandlerContext) {
        guard let encoder else { return }
        encoder.write(NIOAny(head), promise: nil)
        encoder.write(NIOAny(fieldsEnd.bytes(closing: closing)), promise: nil)
        if let body { encoder.write(NIOAny(body), promise: nil) }
        // The handlers in between did not see this response; the connection's timeouts count it.
        context.triggerUserOutboundEvent(ConnectionTimeoutHandler.ResponseWritten(), promise: nil)
        if closing {
            context.flush()
            context.close(promise: nil)
        } else {
            needsFlush = true
        }
    }
}
