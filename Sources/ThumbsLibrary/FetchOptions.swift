/// How a fetch chooses its assets, as `PHFetchOptions`.
public struct FetchOptions: Sendable, Hashable {
    /// Whether every frame of a burst is fetched, rather than the one that stands for it.
    /// Default false, as in PhotoKit.
    public var includeAllBurstAssets: Bool

    public init(includeAllBurstAssets: Bool = false) {
        self.includeAllBurstAssets = includeAllBurstAssets
    }

    func includes(_ asset: Asset) -> Bool {
        includeAllBurstAssets || !asset.isHiddenBurstFrame
    }
}
