import Foundation
import ThumbsCore
import ThumbsRendering
import ThumbsLibrary
import SystemPackage
import ThumbsStore
import ThumbsSupport

/// The store as an output of a warm: its renditions, the photos' placeholders in the metadata
/// cache, and the failure memo (through ``/ThumbsLibrary/FailureMemo``). Writes are batched,
/// one transaction in flight while rendering goes on; killed, a warm loses only the batch being
/// written, and the next run resumes.
///
/// Every photo gets its placeholder (``/ThumbsCore/ThumbHash``): a rendered one from the
/// smallest of its new thumbnails, a fresh one that has none from the smallest of its stored
/// thumbnails, without decoding the file.
public actor StoreWarmOutput: WarmOutput {
    public let store: ThumbnailStore
    public nonisolated let renditions: [RenditionSpec]
    /// Photos per store transaction. Default: 32.
    public let writeBatch: Int
    private let failures: FailureMemo

    private var pending: [ThumbnailStore.ThumbnailEntry] = []
    private var pendingPhotos = 0
    private var placeholders: [ThumbnailStore.PlaceholderEntry] = []
    private var warmedFolders: [WarmedFolder] = []
    /// Assets found, for the catalog: written before the thumbnails of the same transaction's
    /// turn, so that a folder's record never counts on assets the catalog lacks.
    private var listed: [Asset] = []
    private let catalog: LibraryCatalog
    /// Hears what each write of the catalog changed in the listing (a server's change history).
    private let catalogChanges: (@Sendable (CatalogChanges) -> Void)?
    /// The transaction being written: one in flight while rendering goes on, so that a commit's
    /// fsync does not idle the render threads.
    private var writing: Task<Void, any Error>?

    /// `catalogChanges` hears what each write of the catalog changed in the listing, once it is
    /// committed.
    public init(
        store: ThumbnailStore, renditions: [RenditionSpec], writeBatch: Int = 32,
        catalogChanges: (@Sendable (CatalogChanges) -> Void)? = nil
    ) {
        self.store = store
        self.renditions = renditions
        self.writeBatch = writeBatch
        self.catalogChanges = catalogChanges
        failures = FailureMemo(store: store)
        catalog = LibraryCatalog(store: store)
    }

    public nonisolated var keepsPlaceholders: Bool { true }

    /// The context of the ``/ThumbsStore/WarmedFolder`` records it keeps: its renditions.
    public nonisolated var warmedFolderContext: UInt64 {
        WarmedFolder.context(renditions: renditions, more: LibraryCatalog.context)
    }

    /// The store's ``/ThumbsStore/ThumbnailStore/removalGeneration()``.
    func removalGeneration() throws -> Int64 { try store.removalGeneration() }

    /// Keeps records of folders left with nothing to do, after everything given before.
    func keep(_ folders: [WarmedFolder]) async throws {
        warmedFolders += folders
        try await flushWhenFull()
    }

    public func state(of asset: Asset) async throws -> WarmOutputState {
        try keys(of: asset).allSatisfy(store.containsThumbnail) ? .current : .missing
    }

    public func knownFailure(of asset: Asset) async throws -> FailureRecord? {
        try failures.failure(of: asset)
    }

    /// The smallest stored thumbnail of a photo whose metadata record (of this version) has no
    /// placeholder. Nil when it has one, or the store has no record of this version to keep one in.
    public func placeholderSource(for asset: Asset) async throws -> Thumbnail? {
        guard asset.placeholder == nil, let metadata = try store.metadata(for: asset.id),
            metadata.fingerprint == asset.fingerprint, metadata.placeholder == nil
        else { return nil }
        return try store.smallestThumbnail(of: asset.id, fingerprint: asset.fingerprint)?.thumbnail
    }

    public func write(_ thumbnails: [RenditionSpec: Thumbnail], of asset: Asset) async throws {
        pending += zip(keys(of: asset), renditions).compactMap { key, rendition in
            thumbnails[rendition].map { ThumbnailStore.ThumbnailEntry(key: key, thumbnail: $0) }
        }
        pendingPhotos += 1
        try await flushWhenFull()
    }

    public func keep(_ placeholder: ThumbHash, of asset: Asset) async throws {
        placeholders.append(.init(assetID: asset.id, fingerprint: asset.fingerprint, placeholder: placeholder))
        try await flushWhenFull()
    }

    public func recordFailure(_ failure: FailureRecord, of asset: Asset) async throws {
        let failures = failures
        try await Task.detached { try await failures.remember(failure, of: asset) }.value
    }

    /// Nothing: a file the walk could not list is no asset of the store's, and the walk itself
    /// remembers the failures it must (a file a decoder crashed on).
    public func recordUnlistedFailure(_ failure: FailureRecord, of file: Asset) async {}

    /// Keeps `assets` in the store's catalog, with the next transaction.
    public func list(_ assets: [Asset]) async throws {
        listed += assets
        try await flushWhenFull()
    }

    /// Notes in the catalog that `roots` were walked whole, once everything given is kept.
    public func listedWhole(roots: [String]) async throws {
        try await flushAndWait()
        try await catalog.markWalked(roots: roots)
    }

    /// Removes `assets` from the catalog, then their thumbnails, metadata and failures and the
    /// records of their folders as warmed, in one transaction: killed between the two, the next
    /// warm finds them gone again.
    public func remove(_ assets: [Asset]) async throws {
        try await flushAndWait()
        let changes = try await catalog.forget(assets.map(\.id))
        if !changes.isEmpty { catalogChanges?(changes) }
        try await store.forget(
            assets.map(\.id),
            inFolders: assets.map { ($0.root, $0.relativeFilePath.removingLastComponent().bytes) })
    }

    /// Commits everything given, waits for it, and keeps the access times read meanwhile.
    public func finish() async throws {
        try await flushAndWait()
        try await store.flushAccessTimes()
    }

    /// Commits everything given and waits for it.
    private func flushAndWait() async throws {
        try await flush(all: true)
        try await writing?.value
        writing = nil
    }

    /// Placeholders are a few dozen bytes: alone, many more of them fill a transaction.
    private func flushWhenFull() async throws {
        if pendingPhotos >= writeBatch || placeholders.count + warmedFolders.count + listed.count >= writeBatch * 8 {
            try await flush()
        }
    }

    /// Starts writing what is pending, once the write in flight is done. The assets listed for
    /// the catalog wait until they fill a transaction of their own (`writeBatch` × 8), unless a
    /// folder's record counts on them or everything is to be committed (`all`): a cold warm
    /// lists assets much faster than it renders them, and each write of the catalog is a commit
    /// more, with its fsync.
    private func flush(all: Bool = false) async throws {
        try await writing?.value
        writing = nil
        let takesListed = all || !warmedFolders.isEmpty || listed.count >= writeBatch * 8
        let assets = takesListed ? listed : []
        guard !pending.isEmpty || !placeholders.isEmpty || !warmedFolders.isEmpty || !assets.isEmpty else { return }
        let batch = pending, made = placeholders, folders = warmedFolders
        let store = store, catalog = catalog, report = catalogChanges
        pending = []
        pendingPhotos = 0
        placeholders = []
        warmedFolders = []
        if takesListed { listed = [] }
        // Not cancelled with the warm: what was rendered is committed. Placeholders after the
        // thumbnails they were made from, and a folder's record after everything of its assets.
        writing = Task.detached {
            let changes = try await catalog.keep(assets)
            if !changes.isEmpty { report?(changes) }
            try await store.putThumbnails(batch)
            try await store.setPlaceholders(made)
            try await store.putWarmedFolders(folders)
        }
    }

    private func keys(of asset: Asset) -> [ThumbnailKey] {
        renditions.map { ThumbnailKey(assetID: asset.id, fingerprint: asset.fingerprint, rendition: $0) }
    }
}
