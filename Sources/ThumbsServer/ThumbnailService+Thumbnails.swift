import HTTPTypes
import NIOHTTP1
import Foundation
import Hummingbird
import HummingbirdCore
import Thumbs
import ThumbsSupport

extension ThumbnailService {
    enum Delivery: String {
        /// The final image only (the default).
        case final
        /// `multipart/x-mixed-replace`: a degraded image as soon as there is one, then the final.
        case opportunistic
        /// The cheapest acceptable image at once, degraded or final.
        case fast
    }

    /// `GET /thumbnails/{id}/{rendition}`.
    func thumbnail(_ request: Request, context: ServerRequestContext) async throws -> Response {
        let asset = try asset(context.parameters.get("id"))
        let (spec, tag) = try rendition(context.parameters.get("rendition"))
        let delivery = try delivery(request.uri)
        let validated = validators(
            of: asset, tag: tag, uri: request.uri, ifNoneMatch: request.headers[.ifNoneMatch], delivery: delivery)
        var headers: HTTPFields = [
            .eTag: validated.etag, .vary: Self.vary, .cacheControl: validated.cacheControl,
        ]
        if validated.isCurrent { return Response(status: .notModified, headers: headers) }
        if let hit = try manager.cachedImage(for: asset, rendition: spec) {
            metrics.thumbnail(from: hit.source == .memory ? .memory : .store)
            return delivery == .opportunistic
                ? MultipartImages.response(first: hit, headers: headers)
                : image(hit, headers: headers)
        }
        // Only a miss can have failed before: a hit skips the memo's lookup.
        if let record = try store.failure(for: asset.id, fingerprint: asset.fingerprint) {
            metrics.thumbnail(from: .failed)
            throw unrenderable(asset, kind: record.kind.rawValue, message: record.message)
        }
        guard let slot = admission.enter() else { throw APIError.busy }
        // The first image: the final one, or for the other modes the cheapest acceptable one
        // (a nearby rendition, the embedded preview), else the final one all the same.
        let first: ImageResult
        do {
            let mode: DeliveryMode = delivery == .final ? .highQualityFormat : .fastFormat
            first = try await manager.image(for: asset, rendition: spec, options: Self.options(mode))
        } catch {
            slot.release()
            throw try await failure(error, asset: asset)
        }
        metrics.thumbnail(from: first.isDegraded ? .degraded : .rendered)
        switch delivery {
        case .opportunistic where first.isDegraded:
            // The slot goes with the body, which renders the final image; a body never written
            // (the client gone before it starts) is dropped, and the slot is given back then.
            return MultipartImages.response(
                first: first, headers: headers, finalFormat: spec.format,
                final: { [self] in
                    try await manager.image(
                        for: asset, rendition: spec, options: Self.options(.highQualityFormat))
                },
                finished: { [self] outcome in
                    slot.release()
                    if case .failure(let error) = outcome { _ = try? await failure(error, asset: asset) }
                })
        case .opportunistic:
            slot.release()
            return MultipartImages.response(first: first, headers: headers)
        case .final, .fast:
            slot.release()
            if first.isDegraded {
                headers[.eTag] = nil
                headers[.cacheControl] = "no-store"
                headers[Self.degradedField] = "1"
            }
            return image(first, headers: headers)
        }
    }

    /// The answer to `request` when it is a thumbnail request that memory alone answers: the
    /// image in the memory tier (or in `ready`, the answers this event loop gave before), or a
    /// 304. Nil for anything else, which the route answers; see ``MemoryHitHandler``. Counted
    /// in the metrics as the route counts its answers.
    func memoryAnswer(to request: HTTPRequestHead, ready: ReadyAnswers) -> MemoryHitHandler.Answer? {
        guard request.method == .GET || request.method == .HEAD, request.uri.utf8.count <= configuration.maxTargetLength
        else { return nil }
        if let token = configuration.token,
            !ServerMiddleware.carries(
                token, authorization: request.headers.first(name: "authorization"),
                cookies: request.headers["cookie"])
        {
            return nil
        }
        let started = ContinuousClock.now
        let generation = index.generation
        let entry: ReadyAnswers.Entry
        if let kept = ready.entry(for: request.uri, generation: generation) {
            entry = kept
        } else {
            guard let made = readyEntry(request, generation) else { return nil }
            ready.insert(made, for: request.uri)
            entry = made
        }
        var answer = MemoryHitHandler.Answer(status: 304, head: entry.notModifiedHead)
        if !entry.revalidates || !request.headers["if-none-match"].contains(where: { Self.matches($0, entry.etag) }) {
            metrics.thumbnail(from: .memory)
            answer = MemoryHitHandler.Answer(
                status: 200, head: entry.okHead, body: request.method == .GET ? entry.body : nil)
        }
        metrics.response(route: "thumbnail", status: answer.status, duration: started.duration(to: .now))
        return answer
    }

    /// The answer to a thumbnail target from the memory tier, ready to keep; nil when the
    /// target is not one, or asks for what memory cannot give (opportunistic delivery), or
    /// the image is not in memory.
    private func readyEntry(_ request: HTTPRequestHead, _ generation: Int) -> ReadyAnswers.Entry? {
        guard let target = Self.thumbnailTarget(request.uri) else { return nil }
        let uri = target.hasQuery ? URI(request.uri) : nil
        guard let asset = try? asset(String(target.id)), let rendition = try? rendition(String(target.rendition)),
            let delivery = try? delivery(uri), delivery != .opportunistic,
            let hit = manager.memoryThumbnail(for: asset, rendition: rendition.spec)
        else { return nil }
        let validated = validators(of: asset, tag: rendition.tag, uri: uri, ifNoneMatch: nil, delivery: delivery)
        return ReadyAnswers.Entry(
            generation: generation, etag: validated.etag, cacheControl: validated.cacheControl,
            revalidates: delivery != .fast, contentType: hit.format.mimeType, body: ByteBuffer(bytes: hit.bytes))
    }

    /// The asset id and rendition name of a `/thumbnails/{id}/{rendition}` target (with or
    /// without a query), read byte by byte; nil for any other shape, which the router answers.
    static func thumbnailTarget(_ target: String) -> (id: Substring, rendition: Substring, hasQuery: Bool)? {
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

    /// What every answer for a thumbnail URL carries (its ETag and Cache-Control; Vary is
    /// ``vary``), and whether the client's copy, named in If-None-Match, is current (a 304 then).
    func validators(
        of asset: Asset, tag: String, uri: URI?, ifNoneMatch: String?, delivery: Delivery
    ) -> (etag: String, cacheControl: String, isCurrent: Bool) {
        let version = asset.fingerprint.version
        let etag = "\"\(version)-\(tag)\""
        // The URL names this content when it carries its version: then it never changes.
        let immutable = uri?.queryParameters["v"].map(String.init) == version
        let isCurrent = delivery != .fast && ifNoneMatch.map { Self.matches($0, etag) } == true
        return (etag, immutable ? "public, max-age=31536000, immutable" : "no-cache", isCurrent)
    }

    /// Answers differ by who asks (a token may be required).
    static let vary = "Authorization, Cookie"

    /// A URL names one rendition, so its final image is exactly that one (resize mode exact),
    /// never a larger rendition standing in for it; only a degraded first part may differ.
    private static func options(_ mode: DeliveryMode) -> ImageRequestOptions {
        ImageRequestOptions(deliveryMode: mode, resizeMode: .exact)
    }

    /// Header field saying a `fast` answer is a stand-in.
    static let degradedField = HTTPField.Name("X-Thumbs-Degraded")!

    func delivery(_ uri: URI?) throws(APIError) -> Delivery {
        guard let text = uri?.queryParameters["delivery"] else { return .final }
        guard let delivery = Delivery(rawValue: String(text)) else {
            throw .badRequest("bad-delivery", "delivery is final, opportunistic or fast")
        }
        return delivery
    }

    private func image(_ result: ImageResult, headers: HTTPFields) -> Response {
        var headers = headers
        headers[.contentType] = result.format.mimeType
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: result.bytes)))
    }

    /// The error a failed render answers: 422 with the failure's kind for a photo that cannot be
    /// rendered (remembered, so the next request does not decode it again, unless the cause may
    /// pass), and a 500 naming the cache for a cache error.
    private func failure(_ error: any Error, asset: Asset) async throws -> APIError {
        switch error {
        case ImageRequestError.imaging(let imaging):
            if !imaging.kind.isTransient {
                try await store.recordFailures([
                    .init(assetID: asset.id, fingerprint: asset.fingerprint, failure: FailureRecord(imaging))
                ])
            }
            metrics.thumbnail(from: .failed)
            return unrenderable(asset, kind: imaging.kind.rawValue, message: imaging.description)
        case ImageRequestError.cancelled:
            return APIError(status: .serviceUnavailable, kind: "cancelled", message: "the request was cancelled")
        default:
            logger.error("thumbnail of \(asset.id): \(error)")
            return APIError(status: .internalServerError, kind: "cache", message: withoutPaths("\(error)"))
        }
    }

    private func unrenderable(_ asset: Asset, kind: String, message: String) -> APIError {
        APIError(status: .unprocessableContent, kind: kind, message: withoutPaths("\(asset.relativePath): \(message)"))
    }

    /// Whether an `If-None-Match` list names `etag` (or is `*`).
    static func matches(_ list: String, _ etag: String) -> Bool {
        list.split(separator: ",").contains { candidate in
            let tag = candidate.trimmingCharacters(in: .whitespaces)
            return tag == "*" || tag == etag || tag == "W/" + etag
        }
    }
}

extension RenditionSpec {
    /// 16 hex digits naming the rendition's every parameter, for ETags.
    var storageTag: String {
        var hash = FNV1a()
        hash.add(description.utf8)
        return hash.hex
    }
}
