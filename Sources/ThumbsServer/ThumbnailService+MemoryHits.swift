import HTTPTypes
import HummingbirdCore
import NIOCore
import NIOHTTP1
import ThumbsCore
import ThumbsPipeline
import ThumbsSettings

/// What ``MemoryHitHandler`` answers with: the routes of the server's one table that memory
/// can answer (``ServerRoute/memoryAnswer``), and the middleware every request is held to. A
/// request is matched, refused, read, answered and counted as the router, the middleware and
/// the route would: by the same table and the same functions.
struct MemoryHits: Sendable {
    let service: ThumbnailService
    let middleware: ServerMiddleware
    private let routes: [ServerRoute]

    init(service: ThumbnailService) {
        self.service = service
        let routes = service.routes
        middleware = service.middleware(routes: routes)
        self.routes = routes.filter { $0.memoryAnswer != nil }
    }

    /// The answer to `request` when memory alone answers it, as the head to write (its status
    /// line and fields, ``ThumbnailAnswer/encodedHead()``) and the body (none for HEAD): the
    /// 200 of a route's target whose answer is in `ready` (the answers this event loop gave
    /// before) or that the route's ``ServerRoute/memoryAnswer`` makes, or its 304 when the
    /// client's copy is current. Nil for anything else, which the router answers.
    func answer(to request: HTTPRequestHead, ready: ReadyAnswers) -> (head: ByteBuffer, body: ByteBuffer?)? {
        guard request.method == .GET || request.method == .HEAD else { return nil }
        let started = ContinuousClock.now
        let target = request.uri
        // Refused as a route that needs the token: no open route answers from memory, and a
        // refused request goes on to the router, which answers it as the middleware decides.
        guard
            middleware.refusal(
                target: target, isOpen: false, authorization: request.headers.first(name: "authorization"),
                cookies: request.headers["cookie"]) == nil
        else { return nil }
        let generation = service.index.generation
        let entry: ReadyAnswers.Entry
        if let kept = ready.entry(for: target, generation: generation) {
            entry = kept
        } else {
            guard let made = madeEntry(target, generation) else { return nil }
            ready.insert(made, for: target)
            entry = made
        }
        let encoded = entry.answer(ifNoneMatch: request.headers["if-none-match"])
        service.metrics.count(encoded.answer)
        middleware.recordResponse(route: entry.route, status: encoded.answer.status.code, since: started)
        return (encoded.head, request.method == .GET ? encoded.answer.body : nil)
    }

    /// The answer the first route matching `target` gives from memory; nil when none matches or
    /// memory does not hold it.
    private func madeEntry(_ target: String, _ generation: Int) -> ReadyAnswers.Entry? {
        let path = target.utf8.firstIndex(of: UInt8(ascii: "?")).map { target[..<$0] } ?? target[...]
        for route in routes {
            guard let captures = route.captures(in: path) else { continue }
            return route.memoryAnswer?(target, captures, generation)
        }
        return nil
    }
}

extension ThumbnailService {
    /// The answers to a thumbnail target (`/thumbnails/{id}/{rendition}`, its `captures`) from
    /// the memory tier, ready to keep; nil when the target is not one the route would answer,
    /// or asks for what memory cannot give (opportunistic delivery), or the image is not in
    /// memory.
    func readyEntry(target: String, captures: ServerRoute.Captures, generation: Int) -> ReadyAnswers.Entry? {
        guard let id = captures["id"], let rendition = captures["rendition"],
            let thumbnail = try? thumbnailRequest(
                id: String(id), rendition: String(rendition), uri: target.contains("?") ? URI(target) : nil),
            thumbnail.delivery != .opportunistic,
            let hit = manager.memoryThumbnail(for: thumbnail.asset, rendition: thumbnail.spec)
        else { return nil }
        return ReadyAnswers.Entry(
            generation: generation, validators: thumbnail.validators, route: .thumbnail,
            image: .image(hit.bytes, format: hit.format, from: .memory, validators: thumbnail.validators))
    }
}
