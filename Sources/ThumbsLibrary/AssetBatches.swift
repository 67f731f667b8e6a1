import ThumbsCore
import ThumbsRendering
import ThumbsStore
import ThumbsSupport

/// The enumeration as an `AsyncSequence` of batches (see ``PhotoLibrary/assets(batchSize:)``).
public struct AssetBatches: AsyncSequence, Sendable {
    public typealias Element = LibraryBatch
    let library: PhotoLibrary
    let batchSize: Int
    let keepsListings: Bool
    /// The context of the warm that passes over warmed folders; nil for a walk that resolves
    /// every file.
    var warmContext: UInt64? = nil

    public func makeAsyncIterator() -> Iterator {
        Iterator(library: library, batchSize: batchSize, keepsListings: keepsListings, warmContext: warmContext)
    }

    public struct Iterator: AsyncIteratorProtocol {
        let library: PhotoLibrary
        let batchSize: Int
        private var rootIndex = 0
        private var walker: LibraryWalker?
        /// Files that changed while they were read: read again once the walk is over.
        private var changing: [PhotoLibrary.ChangingFile] = []
        private var retried = false
        private var grouping = FolderGrouping()
        private var listings: FolderListingKeeper?
        private var reportedGone = false
        private var warmedFolders: WarmedFolderSkip?
        private var openFolders = OpenFolders()

        init(library: PhotoLibrary, batchSize: Int, keepsListings: Bool, warmContext: UInt64?) {
            self.library = library
            self.batchSize = batchSize
            if keepsListings, let store = library.store {
                listings = FolderListingKeeper(store: store, shard: library.shard)
            }
            if let warmContext, let store = library.store {
                warmedFolders = WarmedFolderSkip(
                    store: store, context: warmContext, shard: library.shard, includeHidden: library.includeHidden)
            }
        }

        /// Files listed per step of a walk that passes over warmed folders.
        static let stepPassingOverFolders = 1024

        public mutating func next() async throws -> LibraryBatch? {
            while true {
                try Task.checkCancellation()
                if let batch = try await nextOfFolderLeft() { return batch }
                guard rootIndex < library.roots.count else { return try await lastBatches() }
                let root = library.roots[rootIndex]
                let walker = self.walker ?? LibraryWalker(root: root, includeHidden: library.includeHidden)
                self.walker = walker
                // A walk that passes over warmed folders gives a folder's assets only once it left
                // the folder: it takes larger steps, each a hand-over to the walk's thread and back.
                let limit = warmedFolders == nil ? batchSize : Swift.max(batchSize, Self.stepPassingOverFolders)
                let step = try await library.io.run { walker.next(limit: limit) }
                // Gathered once for both that compare them.
                let left = listings == nil && warmedFolders == nil ? [] : openFolders.take(step)
                try await listings?.take(step, left: left, root: root)
                if step.finished {
                    rootIndex += 1
                    self.walker = nil
                }
                var batch = LibraryBatch()
                batch.issues = step.issues
                if let warmed = try warmedFolders?.take(step, left: left, root: root) {
                    batch.warmedAssets = warmed
                } else {
                    try await resolve(step.files, root: root, into: &batch)
                    for folder in step.finishedFolders {
                        batch.assets += grouping.release(root: root, folder: folder)
                    }
                }
                for index in batch.issues.indices where batch.issues[index].root == nil {
                    batch.issues[index].root = root
                }
                // A batch whose assets all wait for their group still carries what was read.
                if !batch.assets.isEmpty || !batch.issues.isEmpty || batch.fromCache + batch.inspected > 0
                    || batch.warmedAssets > 0
                {
                    return batch
                }
            }
        }

        /// Resolves `files` of `root` (this shard's) into `batch`, their assets admitted to their
        /// groups.
        private mutating func resolve(_ files: [LibraryWalker.File], root: String, into batch: inout LibraryBatch)
            async throws
        {
            // Another shard's files are left before anything is read of them.
            let files =
                library.shard.map { shard in
                    files.filter { shard.contains(assetID: AssetID.make(root: root, relativeFilePath: $0.path)) }
                } ?? files
            for file in files where MediaType.isMediaFileName(file.relativePath) {
                let slash = file.relativePath.lastIndex(of: "/")
                let folder = slash.map { String(file.relativePath[..<$0]) } ?? ""
                batch.estimatedByFolder[LibraryBatch.Folder(root: root, path: folder), default: 0] += 1
            }
            changing += try await library.resolve(files, root: root, into: &batch)
            batch.assets = grouping.admit(batch.assets)
        }

        /// In a walk that passes over warmed folders: the next files of a folder the walk left
        /// that was not warmed as it is, resolved; the folder's end marked with its last files.
        private mutating func nextOfFolderLeft() async throws -> LibraryBatch? {
            guard let (folder, files, last) = warmedFolders?.nextFiles(limit: batchSize) else { return nil }
            var batch = LibraryBatch()
            let changingBefore = changing.count
            try await resolve(files, root: folder.root, into: &batch)
            for index in batch.issues.indices { batch.issues[index].root = folder.root }
            let troubled = !batch.issues.isEmpty || changing.count > changingBefore
            if last {
                batch.assets += grouping.release(root: folder.root, folder: folder.folder)
                batch.folderEnds.append(
                    LibraryBatch.FolderEnd(
                        root: folder.root, folder: folder.folder, digest: folder.digest,
                        contexts: folder.contexts, clean: folder.clean && !troubled))
            } else if troubled {
                warmedFolders?.markFirstTroubled()
            }
            return batch
        }

        /// After the walk: the files that changed while read, read again; then, for a walk that
        /// keeps listings, what is gone; then, once the caller took that, the held listings kept.
        private mutating func lastBatches() async throws -> LibraryBatch? {
            if let batch = try await retryChanging() { return batch }
            guard var listings else { return nil }
            if !reportedGone {
                reportedGone = true
                var batch = LibraryBatch()
                (batch.gone, batch.issues) = listings.report()
                self.listings = listings
                if !batch.gone.isEmpty || !batch.issues.isEmpty { return batch }
            }
            try await listings.keep()
            self.listings = nil
            return nil
        }

        /// Files that changed while read get one more read at the end. One still changing (being
        /// copied in, say) is listed as an asset with the walk's fingerprint and no properties, when
        /// its first bytes say photo or video, so that a file being rewritten is never reported
        /// removed; nothing of it is cached, and once it settles a rescan reports it changed. What
        /// still waits for its group (a Live Photo's half, a burst's frames) is listed then.
        private mutating func retryChanging() async throws -> LibraryBatch? {
            guard !retried else { return nil }
            retried = true
            var batch = LibraryBatch()
            for (root, files) in Dictionary(grouping: changing, by: \.root) {
                var resolved = LibraryBatch()
                let stillChanging = try await library.resolve(files.map(\.file), root: root, into: &resolved)
                for index in resolved.issues.indices { resolved.issues[index].root = root }
                resolved.assets = grouping.admit(resolved.assets)
                batch.append(resolved)
                for changing in stillChanging {
                    let file = changing.file
                    batch.issues.append(LibraryIssue(path: file.relativePath, reason: .changing, root: root))
                    if changing.mediaType.isAsset {
                        batch.assets.append(
                            Asset(
                                root: root, relativeFilePath: file.path,
                                mediaType: changing.mediaType, fingerprint: file.fingerprint))
                    }
                }
            }
            changing = []
            batch.assets += grouping.releaseAll()
            return batch.assets.isEmpty && batch.issues.isEmpty ? nil : batch
        }
    }
}
