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

    public func makeAsyncIterator() -> Iterator {
        Iterator(library: library, batchSize: batchSize, keepsListings: keepsListings)
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

        init(library: PhotoLibrary, batchSize: Int, keepsListings: Bool) {
            self.library = library
            self.batchSize = batchSize
            if keepsListings, let store = library.store {
                listings = FolderListingKeeper(store: store, shard: library.shard)
            }
        }

        public mutating func next() async throws -> LibraryBatch? {
            while true {
                try Task.checkCancellation()
                guard rootIndex < library.roots.count else { return try await lastBatches() }
                let root = library.roots[rootIndex]
                let walker = self.walker ?? LibraryWalker(root: root, includeHidden: library.includeHidden)
                self.walker = walker
                let limit = batchSize
                let step = try await library.io.run { walker.next(limit: limit) }
                try await listings?.take(step, root: root)
                if step.finished {
                    rootIndex += 1
                    self.walker = nil
                }
                var batch = LibraryBatch()
                batch.issues = step.issues
                // Another shard's files are left before anything is read of them.
                let files =
                    library.shard.map { shard in
                        step.files.filter {
                            shard.contains(assetID: AssetID.make(root: root, relativeFilePath: $0.path))
                        }
                    } ?? step.files
                for file in files where MediaType.isMediaFileName(file.relativePath) {
                    let slash = file.relativePath.lastIndex(of: "/")
                    let folder = slash.map { String(file.relativePath[..<$0]) } ?? ""
                    batch.estimatedByFolder[LibraryBatch.Folder(root: root, path: folder), default: 0] += 1
                }
                changing += try await library.resolve(files, root: root, into: &batch)
                batch.assets = grouping.admit(batch.assets)
                for folder in step.finishedFolders {
                    batch.assets += grouping.release(root: root, folder: folder)
                }
                for index in batch.issues.indices where batch.issues[index].root == nil {
                    batch.issues[index].root = root
                }
                // A batch whose assets all wait for their group still carries what was read.
                if !batch.assets.isEmpty || !batch.issues.isEmpty || batch.fromCache + batch.inspected > 0 {
                    return batch
                }
            }
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
