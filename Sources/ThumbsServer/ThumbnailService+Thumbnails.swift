import HTTPTypes
import Foundation
import Hummingbird
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
        let delivery = try delivery(request)
        let version = asset.fingerprint.version
        let etag = "\"\(version)-\(tag)\""
        var headers: HTTPFields = [.eTag: etag, .vary: "Authorization, Cookie"]
        // The URL names this content when it carries its version: then it never changes.
        let immutable = request.uri.queryParameters["v"].map(String.init) == version
        headers[.cacheControl] = immutable ? "public, max-age=31536000, immutable" : "no-cache"
        if delivery != .fast, let tags = request.headers[.ifNoneMatch], Self.matches(tags, etag) {
            return Response(status: .notModified, headers: headers)
        }
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
        guard admission.enter() else { throw APIError.busy }
        // The first image: the final one, or for the other modes the cheapest acceptable one
        // (a nearby rendition, the embedded preview), else the final one all the same.
        let first: ImageResult
        do {
            let mode: DeliveryMode = delivery == .final ? .highQualityFormat : .fastFormat
            first = try await manager.image(for: asset, rendition: spec, options: Self.options(mode))
        } catch {
            admission.leave()
            throw try await failure(error, asset: asset)
        }
        metrics.thumbnail(from: first.isDegraded ? .degraded : .rendered)
        switch delivery {
        case .opportunistic where first.isDegraded:
            return MultipartImages.response(
                first: first, headers: headers, finalFormat: spec.format,
                final: { [self] in
                    try await manager.image(
                        for: asset, rendition: spec, options: Self.options(.highQualityFormat))
                },
                finished: { [self] outcome in
                    admission.leave()
                    if case .failure(let error) = outcome { _ = try? await failure(error, asset: asset) }
                })
        case .opportunistic:
            admission.leave()
            return MultipartImages.response(first: first, headers: headers)
        case .final, .fast:
            admission.leave()
            if first.isDegraded {
                headers[.eTag] = nil
                headers[.cacheControl] = "no-store"
                headers[Self.degradedField] = "1"
            }
            return image(first, headers: headers)
        }
    }

    /// A URL names one rendition, so its final image is exactly that one (resize mode exact),
    /// never a larger rendition standing in for it; only a degraded first part may differ.
    private static func options(_ mode: DeliveryMode) -> ImageRequestOptions {
        ImageRequestOptions(deliveryMode: mode, resizeMode: .exact)
    }

    /// Header field saying a `fast` answer is a stand-in.
    static let degradedField = HTTPField.Name("X-Thumbs-Degraded")!

    private func delivery(_ request: Request) throws(APIError) -> Delivery {
        guard let text = request.uri.queryParameters["delivery"] else { return .final }
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

extension ThumbnailFormat {
    var mimeType: String {
        switch self {
        case .jpeg: "image/jpeg"
        case .webp: "image/webp"
        case .png: "image/png"
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
