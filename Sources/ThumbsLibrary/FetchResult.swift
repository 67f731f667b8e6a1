import ThumbsRendering

/// An ordered snapshot of assets, as `PHFetchResult`: what a grid shows, and what later changes
/// are described against. Newest first (by ``Asset/date``, ties by id).
///
/// ```swift
/// let result = try await library.fetchAssets()
/// for index in 0..<result.count { show(result.object(at: index)) }
/// ```
public struct FetchResult: Sendable, Hashable, RandomAccessCollection {
    private var assets: [Asset]

    /// `assets` in the order of a fetch result: newest first, ties by id.
    public init(assets: [Asset]) {
        self.assets = assets.map { (date: $0.date, asset: $0) }
            .sorted { $0.date != $1.date ? $0.date > $1.date : $0.asset.id < $1.asset.id }
            .map(\.asset)
    }

    /// `assets` kept in the order given (a snapshot read back from the store).
    init(ordered assets: [Asset]) {
        self.assets = assets
    }

    public var startIndex: Int { assets.startIndex }
    public var endIndex: Int { assets.endIndex }
    public subscript(index: Int) -> Asset { assets[index] }

    /// The asset at `index`, as `PHFetchResult.object(at:)`.
    public func object(at index: Int) -> Asset { assets[index] }

    /// The index of the asset with `id`, if the result holds it.
    public func index(ofAssetWithID id: String) -> Int? {
        assets.firstIndex { $0.id == id }
    }
}
