import Foundation
import SystemPackage
import ThumbsRendering

/// One batch of the enumeration.
public struct LibraryBatch: Sendable {
    /// A folder of a root.
    public struct Folder: Sendable, Hashable {
        public var root: String
        public var path: String
        var key: String { root + "\u{0}" + path }

        /// The album's title: the folder's path, or the root's name for the root itself.
        public var title: String {
            path.isEmpty ? URL(fileURLWithPath: root).lastPathComponent : path
        }
    }

    public var assets: [Asset] = []
    /// Files whose names say photo or video, per folder, as the walk saw them (before reading).
    public var estimatedByFolder: [Folder: Int] = [:]
    /// What could not be included, or only in part.
    public var issues: [LibraryIssue] = []
    /// How many assets came from the metadata cache, and how many were read from their files.
    public var fromCache = 0
    public var inspected = 0
    /// How many of those from the cache it recognised by their content under a new path (a
    /// file moved, renamed or copied): their metadata and thumbnails were the old path's.
    public var recognised = 0
    /// Files of the cache's folder listings that the walk no longer finds, as assets (their
    /// type as the metadata cache had it): what the cache and other outputs should forget. Only
    /// a walk that keeps listings reports them (``PhotoLibrary/assets(batchSize:keepingListings:)``),
    /// in its last batch.
    public var gone: [Asset] = []

    /// A folder whose every asset is in this batch or an earlier one, in a walk that passes
    /// over warmed folders (``PhotoLibrary/assets(batchSize:keepingListings:skippingWarmedFolders:)``):
    /// what a warm that leaves it with nothing to do keeps as its ``/ThumbsStore/WarmedFolder``.
    public struct FolderEnd: Sendable, Hashable {
        public var root: String
        /// Beneath ``root``: an asset's `relativeFilePath.removingLastComponent()`.
        public var folder: FilePath
        /// The ``/ThumbsStore/FolderListing/Digest/recorded`` digest of its files.
        public var digest: UInt64
        /// The contexts its record is kept for, as the walk mixed them: the warm's, and that
        /// of a walk that only lists the library.
        public var contexts: [UInt64]
        /// Whether every file of it became an asset without an issue: only such a folder may be
        /// passed over later.
        public var clean: Bool
    }

    /// Folders finished in this batch (see ``FolderEnd``).
    public var folderEnds: [FolderEnd] = []
    /// Assets of folders passed over as warmed: counted from their records, not listed.
    public var warmedAssets = 0

    public init() {}

    /// Adds `other`'s assets, estimates, issues and counts to this batch.
    public mutating func append(_ other: LibraryBatch) {
        assets += other.assets
        estimatedByFolder.merge(other.estimatedByFolder, uniquingKeysWith: +)
        issues += other.issues
        fromCache += other.fromCache
        inspected += other.inspected
        recognised += other.recognised
        gone += other.gone
        folderEnds += other.folderEnds
        warmedAssets += other.warmedAssets
    }
}
