import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import NIOFoundationEssentialsCompat
import ThumbsLibrary
import ThumbsPipeline
import ThumbsSettings

extension ThumbnailService {
    /// Header a client names itself with, so that its preheating is its own whatever connection
    /// a request comes on (a page uses several).
    static let clientField = HTTPField.Name("X-Thumbs-Client")!

    /// `POST /api/preheat` (start) and `DELETE /api/preheat` (stop), as `startCachingImages` and
    /// `stopCachingImages`, kept per client.
    func preheat(_ request: Request, context: ServerRequestContext, start: Bool) async throws -> Response {
        let client = try client(of: request, context: context)
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: configuration.maxBodyBytes)
        } catch {
            throw APIError(
                status: .contentTooLarge, kind: "body-too-large",
                message: "a request body is at most \(configuration.maxBodyBytes) bytes")
        }
        let list: PreheatRequest
        do {
            list = try JSONDecoder().decode(PreheatRequest.self, from: body)
        } catch {
            throw APIError.badRequest("bad-body", #"expected {"assets": [ids], "rendition": name}"#)
        }
        let spec = try rendition(list.rendition).spec
        let assets = try index.catalog.assets(ids: list.assets, roots: index.roots)
        let unknown = list.assets.filter { assets[$0] == nil }
        let keys = assets.keys.map { PreheatRegistry.Key(assetID: $0, rendition: list.rendition) }
        let outcome = start ? preheats.start(keys, for: client) : preheats.stop(keys, for: client)
        switch outcome {
        case .overLimit(let forgotten):
            try stopCaching(forgotten)
            throw APIError.badRequest(
                "preheat-limit", "a client preheats at most \(preheats.limits.keysPerClient) assets at once")
        case .done(let changed, let total, let forgotten):
            try stopCaching(forgotten)
            let affected = changed.compactMap { assets[$0.assetID] }
            if start {
                manager.startCaching(assets: affected, rendition: spec)
            } else {
                manager.stopCaching(assets: affected, rendition: spec)
            }
            return try json(PreheatAnswer(preheating: total, unknown: unknown))
        }
    }

    /// Stops preheating `keys` (those of forgotten clients), rendition by rendition; an asset
    /// gone from the library since is not preheated any more anyway.
    private func stopCaching(_ keys: [PreheatRegistry.Key]) throws {
        for (rendition, keys) in Dictionary(grouping: keys, by: \.rendition) {
            guard let spec = renditionsByName[rendition]?.spec else { continue }
            let assets = try index.catalog.assets(ids: keys.map(\.assetID), roots: index.roots)
            manager.stopCaching(assets: Array(assets.values), rendition: spec)
        }
    }

    /// Letters, digits, "-" and "_".
    private static func isClientNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
            true
        default: false
        }
    }

    /// Who preheats: the name the client gives, else its address (without the port, which
    /// differs by connection).
    private func client(of request: Request, context: ServerRequestContext) throws(APIError) -> String {
        if let name = request.headers[Self.clientField] {
            guard (1...64).contains(name.utf8.count), name.utf8.allSatisfy(Self.isClientNameByte) else {
                throw .badRequest("bad-client", "X-Thumbs-Client is 1 to 64 letters, digits, - or _")
            }
            return "name:" + name
        }
        return "address:" + (context.remoteAddress?.ipAddress ?? "unknown")
    }
}
