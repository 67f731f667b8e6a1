import CLMDB
import ThumbsSupport

/// The named LMDB databases of the cache, and the bookkeeping kept beside them.
enum StoreTables {
    /// ThumbnailKey → StoredThumbnail record.
    static let thumbnails = "thumbnails"
    /// ThumbnailKey → access time (u32 seconds since 1970).
    static let access = "access"
    /// access time ‖ ThumbnailKey → nothing: walked from the start, oldest first, to evict.
    static let lru = "lru"
    /// asset id → AssetMetadata record.
    static let metadata = "metadata"
    /// asset id NUL fingerprint → FailureRecord.
    static let failures = "failures"
    /// name → u64: live bytes, entry count, hits, misses.
    static let info = "info"
    /// name → a cursor record: the library keeps its fetch results here, so that later changes
    /// can be described against them.
    static let cursors = "cursors"
    /// size ‖ mtime ‖ content signature ‖ asset id → nothing: the assets whose metadata record
    /// keeps that content identity, found by it when a file turns up under a new path.
    static let contents = "contents"
    /// root hash ‖ folder hash → FolderListing record: each folder's files as the last walk that
    /// kept listings saw them.
    static let folders = "folders"

    /// root hash ‖ folder hash → WarmedFolder record: the folders a warm left with nothing to do.
    static let warmed = "warmed"

    /// The library catalog (``CatalogTransaction``): asset id → asset record; list ‖ group ‖
    /// order ‖ asset id → nothing; list ‖ group → the group's counts.
    static let catalogAssets = "catalog-assets"
    static let catalogOrder = "catalog-order"
    static let catalogGroups = "catalog-groups"

    static let all = [
        thumbnails, access, lru, metadata, failures, info, cursors, contents, folders, warmed, catalogAssets,
        catalogOrder, catalogGroups,
    ]
}
