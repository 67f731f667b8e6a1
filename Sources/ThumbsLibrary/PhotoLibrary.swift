import Foundation
import ThumbsRendering
import ThumbsStore
import ThumbsSupport

/// The photos and videos under some folders, enumerated in batches, with their metadata served
/// from the store's metadata cache whenever a file's size and modification time are unchanged.
///
/// ```swift
/// let library = PhotoLibrary(roots: ["/photos"], renderer: renderer, store: store)
/// for try await batch in library.assets() { show(batch.assets) }
/// ```
public final class PhotoLibrary: Sendable {
    public let roots: [String]
    public let includeHidden: Bool
    /// Inspects the files the walk finds.
    public let renderer: any ThumbnailRendering
    /// The metadata cache the walk reads and fills, and keeps its listings in.
    public let store: ThumbnailStore?
    /// The store's remembered failures: the walk skips the headers that crashed a decoder, and
    /// remembers those that crash one.
    let failureMemo: FailureMemo?
    /// When set, the library is only the assets of this shard: the walk still lists every file,
    /// but reads (and caches the metadata of) only this shard's.
    public let shard: LibraryShard?
    /// File-system walking blocks on every call (on a NAS, for milliseconds), so it runs on a
    /// thread of its own rather than on the cooperative pool.
    let io = BlockingThreadPool(name: "thumbs-walk", threadCount: 1)

    /// `roots` are folders (resolved to absolute paths); `store`, when given, provides and keeps
    /// the metadata cache.
    public convenience init(
        roots: [String], includeHidden: Bool = false, renderer: any ThumbnailRendering, store: ThumbnailStore?
    ) {
        self.init(roots: roots, includeHidden: includeHidden, renderer: renderer, store: store, shard: nil)
    }

    /// The part of the library in `shard` (all of it when nil).
    public init(
        roots: [String], includeHidden: Bool, renderer: any ThumbnailRendering, store: ThumbnailStore?,
        shard: LibraryShard?
    ) {
        self.roots = roots.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        self.includeHidden = includeHidden
        self.renderer = renderer
        self.store = store
        failureMemo = store.map(FailureMemo.init(store:))
        self.shard = shard
    }

    /// Every asset of the library, `batchSize` at a time, as the walk finds them: the first
    /// batch comes as soon as `batchSize` files are found, whatever the library's size.
    /// Cancelling the consuming task stops the walk.
    public func assets(batchSize: Int = 50) -> AssetBatches {
        AssetBatches(library: self, batchSize: max(1, batchSize), keepsListings: false)
    }

    /// The same walk, keeping in the store each folder's listing of files (``/ThumbsStore/FolderListing``),
    /// so that its last batch says which files are gone since the last walk that kept them
    /// (``LibraryBatch/gone``), for the caller to forget. The listings of folders that lost
    /// files are kept only when the caller asks for the batch after the last one: a walk
    /// interrupted before its caller forgot what is gone finds it gone again next time. Without
    /// a store, the same as ``assets(batchSize:)``.
    public func assets(batchSize: Int = 50, keepingListings: Bool) -> AssetBatches {
        AssetBatches(library: self, batchSize: max(1, batchSize), keepsListings: keepingListings && store != nil)
    }

    /// The same walk, for a warm of `context` (``/ThumbsStore/WarmedFolder/context(renditions:more:)``)
    /// into the library's store: a folder the store's ``/ThumbsStore/WarmedFolder`` record says
    /// such a warm left with nothing to do, whose files are as they were, is not resolved: its
    /// assets are counted (``LibraryBatch/warmedAssets``). The assets of a folder come once the
    /// walk has left it, each folder's end marked (``LibraryBatch/folderEnds``) for the warm to
    /// keep a record of. Without a store, the same as ``assets(batchSize:keepingListings:)``.
    public func assets(batchSize: Int = 50, keepingListings: Bool, skippingWarmedFolders context: UInt64)
        -> AssetBatches
    {
        AssetBatches(
            library: self, batchSize: max(1, batchSize), keepsListings: keepingListings && store != nil,
            warmContext: context)
    }

    /// The whole enumeration as one batch: every asset and issue (for what needs them all, such
    /// as a fetch result or album counts).
    public func allAssets() async throws -> LibraryBatch {
        var all = LibraryBatch()
        for try await batch in assets() { all.append(batch) }
        return all
    }

    /// Every asset, newest first, a burst as the frame that stands for it, as
    /// `PHAsset.fetchAssets(with:)`.
    public func fetchAssets() async throws -> FetchResult {
        try await fetchAssets(options: FetchOptions())
    }

    /// Every asset `options` chooses, newest first.
    public func fetchAssets(options: FetchOptions) async throws -> FetchResult {
        FetchResult(assets: try await allAssets().assets.filter(options.includes))
    }

    /// The assets of `collection`, newest first, a burst as the frame that stands for it, as
    /// `PHAsset.fetchAssets(in:options:)`.
    public func fetchAssets(in collection: AssetCollection) async throws -> FetchResult {
        try await fetchAssets(in: collection, options: FetchOptions())
    }

    /// The assets of `collection` that `options` chooses, newest first.
    public func fetchAssets(in collection: AssetCollection, options: FetchOptions) async throws -> FetchResult {
        let now = Date()
        return FetchResult(
            assets: try await allAssets().assets.filter { options.includes($0) && collection.contains($0, now: now) })
    }

    /// Every frame of the burst `identifier`, newest first, as
    /// `PHAsset.fetchAssets(withBurstIdentifier:options:)`.
    public func fetchAssets(withBurstIdentifier identifier: String) async throws -> FetchResult {
        FetchResult(assets: try await allAssets().assets.filter { $0.burstIdentifier == identifier })
    }

    /// The smart albums, then the folder albums holding media, by path, as
    /// `PHAssetCollection.fetchAssetCollections(with:subtype:options:)`.
    public func albums() async throws -> [AssetCollection] {
        let albums = try await enumerateAlbums().albums
        return albums.smartAlbums + albums.folderAlbums
    }
}

extension PhotoLibrary {
    /// The name under which ``rescan(cursor:)`` keeps the library's last fetch result.
    public static let defaultCursor = "library"

    /// Enumerates the library again and describes what changed since the fetch result kept under
    /// `cursor` (nil when nothing did), then keeps the new result there. The first rescan, with
    /// nothing kept yet, reports every asset as inserted. The fetch results compared hold every
    /// burst frame (as `FetchOptions(includeAllBurstAssets: true)` fetches), so that a frame
    /// coming to stand for its burst is seen as a change.
    public func rescan(cursor: String = PhotoLibrary.defaultCursor) async throws -> ChangeDetails? {
        let current = FetchResult(assets: try await allAssets().assets)
        // A cursor of another version reads as none (see FetchResult.cursorVersion).
        let previous =
            try store?.cursor(named: cursor) { record throws(StoreError) in
                try FetchResult(cursorRecord: record)
            } ?? nil
        try await store?.saveCursor(current.cursorRecord, named: cursor)
        return ChangeDetails.between(previous ?? FetchResult(assets: []), current)
    }
}
