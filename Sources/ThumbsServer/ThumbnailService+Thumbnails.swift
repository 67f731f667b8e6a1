import Hummingbird
import HummingbirdCore
import Logging
import ThumbsCore
import ThumbsLibrary
import ThumbsPipeline
import ThumbsSettings
import ThumbsStore
import ThumbsSupport

extension ThumbnailService {
    /// What a thumbnail URL names: the asset, the rendition and the delivery, and the
    /// validators of every answer to it.
    struct ThumbnailRequest {
        var asset: Asset
        var spec: RenditionSpec
        var delivery: DeliveryMode
        var validators: ThumbnailAnswer.Validators
    }

    /// The thumbnail request of `/thumbnails/{id}/{rendition}` with `uri`'s query (nil for none).
    func thumbnailRequest(id: String?, rendition name: String?, uri: URI?) throws(APIError) -> ThumbnailRequest {
        let asset = try asset(id)
        let (spec, tag) = try rendition(name)
        let delivery = try DeliveryMode(deliveryParameter: uri?.queryParameters["delivery"])
        let validators = ThumbnailAnswer.Validators(
            version: asset.fingerprint.version, tag: tag, versionInURL: uri?.queryParameters["v"], delivery: delivery)
        return ThumbnailRequest(asset: asset, spec: spec, delivery: delivery, validators: validators)
    }

    /// `GET /thumbnails/{id}/{rendition}`.
    func thumbnail(_ request: Request, context: ServerRequestContext) async throws -> Response {
        let thumbnail = try thumbnailRequest(
            id: context.parameters.get("id"), rendition: context.parameters.get("rendition"), uri: request.uri)
        let (asset, spec, validators) = (thumbnail.asset, thumbnail.spec, thumbnail.validators)
        if validators.isCurrent(ifNoneMatch: request.headers[values: .ifNoneMatch]) {
            return answered(.notModified(validators))
        }
        if let hit = try manager.cachedImage(for: asset, rendition: spec) {
            let tier: ServerMetrics.Tier = hit.source == .memory ? .memory : .store
            guard thumbnail.delivery == .opportunistic else {
                return answered(.image(hit.bytes, format: hit.format, from: tier, validators: validators))
            }
            metrics.thumbnail(from: tier)
            return MultipartImages.response(first: hit, headers: validators.fields)
        }
        // Only a miss can have failed before: a hit skips the memo's lookup. Asked before a render
        // is admitted, so that a file that failed is answered as such however busy the server is.
        if let failure = try manager.rememberedFailure(of: asset) {
            metrics.thumbnail(from: .failed)
            throw unrenderable(asset, kind: failure.kind.rawValue, message: failure.message)
        }
        guard let slot = admission.enter() else { throw APIError.busy }
        // The first image: the final one, or for the other modes the cheapest acceptable one
        // (a nearby rendition, the embedded preview), else the final one all the same.
        let first: ImageResult
        do {
            let mode: DeliveryMode = thumbnail.delivery == .highQualityFormat ? .highQualityFormat : .fastFormat
            first = try await manager.image(for: asset, rendition: spec, options: Self.options(mode))
        } catch {
            slot.release()
            throw failure(error, asset: asset)
        }
        guard thumbnail.delivery == .opportunistic else {
            slot.release()
            return answered(
                first.isDegraded
                    ? .standIn(first.bytes, format: first.format)
                    : .image(first.bytes, format: first.format, from: .rendered, validators: validators))
        }
        metrics.thumbnail(from: first.isDegraded ? .degraded : .rendered)
        guard first.isDegraded else {
            slot.release()
            return MultipartImages.response(first: first, headers: validators.fields)
        }
        // The slot goes with the body, which renders the final image; a body never written
        // (the client gone before it starts) is dropped, and the slot is given back then.
        var response = MultipartImages.response(
            first: first, headers: validators.fields, finalFormat: spec.format,
            final: { [self] in
                try await manager.image(for: asset, rendition: spec, options: Self.options(.highQualityFormat))
            },
            finished: { [self] outcome in
                slot.release()
                if case .failure(let error) = outcome { _ = failure(error, asset: asset) }
            })
        response.body = context.timing?.streamed(response.body) ?? response.body
        return response
    }

    /// `answer` as Hummingbird writes it, counted under its tier.
    private func answered(_ answer: ThumbnailAnswer) -> Response {
        metrics.count(answer)
        return answer.response
    }

    /// A URL names one rendition, so its final image is exactly that one (resize mode exact),
    /// never a larger rendition standing in for it; only a degraded first part may differ.
    private static func options(_ mode: DeliveryMode) -> ImageRequestOptions {
        ImageRequestOptions(deliveryMode: mode, resizeMode: .exact)
    }

    /// The error a failed request answers, counted: 422 with the failure's kind for a photo that
    /// cannot be rendered (which the manager remembers, so that the next request does not decode
    /// it again, unless the cause may pass) or failed before, and a 500 naming the cache for a
    /// cache error.
    private func failure(_ error: any Error, asset: Asset) -> APIError {
        switch error {
        case ImageRequestError.imaging(let imaging):
            metrics.thumbnail(from: .failed)
            return unrenderable(asset, kind: imaging.kind.rawValue, message: imaging.description)
        case ImageRequestError.failedBefore(let failure):
            metrics.thumbnail(from: .failed)
            return unrenderable(asset, kind: failure.kind.rawValue, message: failure.message)
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
}

extension RenditionSpec {
    /// 16 hex digits naming the rendition's every parameter, for ETags.
    var storageTag: String {
        var hash = FNV1a()
        hash.add(description.utf8)
        return hash.hex
    }
}
