import HTTPTypes
import HummingbirdCore
import NIOCore
import NIOHTTP1
import ThumbsCore
import ThumbsPipeline
import ThumbsSettings

extension ThumbnailService {
    /// The answer to `request` when memory alone answers it, as the head to write (its status
    /// line and fields, ``ThumbnailAnswer/encodedHead()``) and the body (none for HEAD): the
    /// 200 of a thumbnail URL whose image is in `ready` (the answers this event loop gave
    /// before) or in the manager's memory tier, or its 304 when the client's copy is current.
    /// Nil for anything else, which the route answers; see ``MemoryHitHandler``. The request
    /// is refused, read, answered and counted by the middleware's and the route's own functions.
    func memoryAnswer(to request: HTTPRequestHead, ready: ReadyAnswers) -> (head: ByteBuffer, body: ByteBuffer?)? {
        guard request.method == .GET || request.method == .HEAD else { return nil }
        let started = ContinuousClock.now
        let target = request.uri
        guard
            middleware.refusal(
                target: target, path: Self.path(of: target),
                authorization: request.headers.first(name: "authorization"),
                cookies: request.headers["cookie"]) == nil
        else { return nil }
        let generation = index.generation
        let entry: ReadyAnswers.Entry
        if let kept = ready.entry(for: target, generation: generation) {
            entry = kept
        } else {
            guard let made = readyEntry(target, generation) else { return nil }
            ready.insert(made, for: target)
            entry = made
        }
        let encoded = entry.answer(ifNoneMatch: request.headers["if-none-match"])
        metrics.count(encoded.answer)
        middleware.recordResponse(route: entry.route, status: encoded.answer.status.code, since: started)
        return (encoded.head, request.method == .GET ? encoded.answer.body : nil)
    }

    /// The answers to a thumbnail target from the memory tier, ready to keep; nil when the
    /// target is not one the route would answer, or asks for what memory cannot give
    /// (opportunistic delivery), or the image is not in memory.
    private func readyEntry(_ target: String, _ generation: Int) -> ReadyAnswers.Entry? {
        guard let path = Self.thumbnailPath(target),
            let thumbnail = try? thumbnailRequest(
                id: String(path.id), rendition: String(path.rendition), uri: path.hasQuery ? URI(target) : nil),
            thumbnail.delivery != .opportunistic,
            let hit = manager.memoryThumbnail(for: thumbnail.asset, rendition: thumbnail.spec)
        else { return nil }
        return ReadyAnswers.Entry(
            generation: generation, validators: thumbnail.validators,
            route: ServerMiddleware.route(of: Self.path(of: target)),
            image: .image(hit.bytes, format: hit.format, from: .memory, validators: thumbnail.validators))
    }

    /// A request target without its query.
    private static func path(of target: String) -> Substring {
        target.utf8.firstIndex(of: UInt8(ascii: "?")).map { target[..<$0] } ?? target[...]
    }

    /// The asset id and rendition name of a `/thumbnails/{id}/{rendition}` target (with or
    /// without a query), read byte by byte; nil for any other shape, which the router answers.
    static func thumbnailPath(_ target: String) -> (id: Substring, rendition: Substring, hasQuery: Bool)? {
        let bytes = target.utf8
        let prefix = "/thumbnails/".utf8
        guard bytes.starts(with: prefix) else { return nil }
        let idStart = bytes.index(bytes.startIndex, offsetBy: prefix.count)
        guard let idEnd = bytes.index(idStart, offsetBy: 16, limitedBy: bytes.endIndex), idEnd < bytes.endIndex,
            bytes[idEnd] == UInt8(ascii: "/")
        else { return nil }
        let nameStart = bytes.index(after: idEnd)
        let nameEnd = bytes[nameStart...].firstIndex(of: UInt8(ascii: "?")) ?? bytes.endIndex
        guard nameStart < nameEnd, !bytes[nameStart..<nameEnd].contains(UInt8(ascii: "/")) else { return nil }
        return (target[idStart..<idEnd], target[nameStart..<nameEnd], nameEnd < bytes.endIndex)
    }
}
