import Foundation
import Hummingbird
import Logging
import ThumbsCore
import ThumbsLibrary
import ThumbsPipeline
import ThumbsSettings
import ThumbsStore
import ThumbsSupport

/// What the routes answer from: the library index, the manager and its store, the renditions
/// by name, and the bounds. One per server.
final class ThumbnailService: Sendable {
    let index: LibraryIndex
    let manager: CachingImageManager
    let store: ThumbnailStore
    /// The ladder of config.json, in its order, and by name.
    let renditions: [Rendition]
    /// Each rendition's spec and the tag that names it in ETags, computed once.
    let renditionsByName: [String: (spec: RenditionSpec, tag: String)]
    let configuration: ServeConfiguration
    let admission: RenderAdmission
    let preheats: PreheatRegistry
    let metrics: ServerMetrics
    let logger: Logger
    /// Reads of original files (a Live Photo's movie): they block, on a NAS for milliseconds.
    let fileReads = BlockingThreadPool(name: "thumbs-serve-files", threadCount: 2)
    /// Library roots, longest first, taken out of failure messages: a path is never sent.
    private let roots: [String]

    init(
        index: LibraryIndex, manager: CachingImageManager, store: ThumbnailStore, renditions: [Rendition],
        roots: [String], configuration: ServeConfiguration, logger: Logger
    ) {
        self.index = index
        self.manager = manager
        self.store = store
        self.renditions = renditions
        renditionsByName = Dictionary(
            renditions.map { ($0.name, ($0.spec, $0.spec.storageTag)) }, uniquingKeysWith: { first, _ in first })
        self.roots = roots.sorted { $0.count > $1.count }
        self.configuration = configuration
        metrics = ServerMetrics()
        admission = RenderAdmission(limit: configuration.maxPendingRenders)
        preheats = PreheatRegistry(
            limits: .init(
                keysPerClient: configuration.maxPreheatedAssets, clients: configuration.maxPreheatClients,
                idleTime: .nanoseconds(Int64(configuration.preheatClientIdleTimeout * 1e9))))
        self.logger = logger
    }

    /// The asset an URL's id names, as the catalog keeps it.
    func asset(_ id: String?) throws(APIError) -> Asset {
        guard let id, Self.isAssetID(id) else {
            throw .badRequest("bad-id", "an asset id is 16 lowercase hex digits")
        }
        let found: Asset?
        do {
            found = try index.asset(id: id)
        } catch {
            throw APIError(
                status: .internalServerError, kind: "damaged-cache", message: "the cache's catalog could not be read")
        }
        guard let asset = found else {
            throw .notFound("unknown-asset", "no asset \(id) in the library")
        }
        return asset
    }

    func rendition(_ name: String?) throws(APIError) -> (spec: RenditionSpec, tag: String) {
        guard let name, let rendition = renditionsByName[name] else {
            throw .notFound(
                "unknown-rendition",
                "renditions are \(renditions.map(\.name).joined(separator: ", "))")
        }
        return rendition
    }

    static func isAssetID(_ text: some StringProtocol) -> Bool {
        text.utf8.count == 16 && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    /// The asset as the API lists it. Its ThumbHash comes from the walk when it had one, else
    /// from the metadata cache, where a render since (a miss, the warm at start, the watch)
    /// leaves it, as it leaves the partial flag of a thumbnail made from what decoded of a
    /// damaged file; both only for the version of the file listed.
    func listed(_ asset: Asset) -> AssetJSON {
        let cached = (try? store.metadata(for: asset.id)).flatMap { $0 }.flatMap {
            $0.fingerprint == asset.fingerprint ? $0 : nil
        }
        return AssetJSON(
            asset, placeholder: (asset.placeholder ?? cached?.placeholder)?.base64, isPartial: cached?.isPartial == true
        )
    }

    /// `text` without the library roots in it.
    func withoutPaths(_ text: String) -> String {
        roots.reduce(text) { $0.replacingOccurrences(of: $1 + "/", with: "") }
    }

    func json(_ value: some Encodable) throws -> Response {
        try JSONResponse.make(value)
    }
}
