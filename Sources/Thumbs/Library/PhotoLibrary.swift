import Foundation

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
    public let renderer: ThumbnailRenderer
    let store: ThumbnailStore?
    /// File-system walking blocks on every call (on a NAS, for milliseconds), so it runs on a
    /// thread of its own rather than on the cooperative pool.
    let io = BlockingThreadPool(name: "thumbs-walk", threadCount: 1)

    /// `roots` are folders (resolved to absolute paths); `store`, when given, provides and keeps
    /// the metadata cache.
    public init(roots: [String], includeHidden: Bool = false, renderer: ThumbnailRenderer, store: ThumbnailStore?) {
        self.roots = roots.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        self.includeHidden = includeHidden
        self.renderer = renderer
        self.store = store
    }

    /// Every asset of the library, `batchSize` at a time, as the walk finds them: the first
    /// batch comes as soon as `batchSize` files are found, whatever the library's size.
    /// Cancelling the consuming task stops the walk.
    public func assets(batchSize: Int = 50) -> AssetBatches {
        AssetBatches(library: self, batchSize: max(1, batchSize))
    }

    /// Every asset, collected (for commands that need them all, such as album counts).
    public func allAssets() async throws -> (assets: [Asset], issues: [LibraryIssue]) {
        var assets: [Asset] = []
        var issues: [LibraryIssue] = []
        for try await batch in self.assets() {
            assets += batch.assets
            issues += batch.issues
        }
        return (assets, issues)
    }
}

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
}

/// The enumeration as an `AsyncSequence` of batches (see ``PhotoLibrary/assets(batchSize:)``).
public struct AssetBatches: AsyncSequence, Sendable {
    public typealias Element = LibraryBatch
    let library: PhotoLibrary
    let batchSize: Int

    public func makeAsyncIterator() -> Iterator {
        Iterator(library: library, batchSize: batchSize)
    }

    public struct Iterator: AsyncIteratorProtocol {
        let library: PhotoLibrary
        let batchSize: Int
        private var rootIndex = 0
        private var walker: LibraryWalker?
        /// Files that changed while they were read: read again once the walk is over.
        private var changing: [(root: String, file: LibraryWalker.File)] = []
        private var retried = false

        init(library: PhotoLibrary, batchSize: Int) {
            self.library = library
            self.batchSize = batchSize
        }

        public mutating func next() async throws -> LibraryBatch? {
            while true {
                try Task.checkCancellation()
                guard rootIndex < library.roots.count else { return try await retryChanging() }
                let root = library.roots[rootIndex]
                let walker = self.walker ?? LibraryWalker(root: root, includeHidden: library.includeHidden)
                self.walker = walker
                let limit = batchSize
                let step = try await library.io.run { walker.next(limit: limit) }
                if step.finished {
                    rootIndex += 1
                    self.walker = nil
                }
                var batch = LibraryBatch(issues: step.issues)
                for file in step.files where MediaType.isMediaFileName(file.relativePath) {
                    let slash = file.relativePath.lastIndex(of: "/")
                    let folder = slash.map { String(file.relativePath[..<$0]) } ?? ""
                    batch.estimatedByFolder[LibraryBatch.Folder(root: root, path: folder), default: 0] += 1
                }
                let late = try await library.resolve(step.files, root: root, into: &batch)
                changing += late.map { (root, $0) }
                if !batch.assets.isEmpty || !batch.issues.isEmpty { return batch }
            }
        }

        /// Files that changed while read get one more read at the end; still changing, they are
        /// listed without details and not cached.
        private mutating func retryChanging() async throws -> LibraryBatch? {
            guard !changing.isEmpty, !retried else { return nil }
            retried = true
            var batch = LibraryBatch()
            for (root, files) in Dictionary(grouping: changing, by: \.root).mapValues({ $0.map(\.file) }) {
                let stillChanging = try await library.resolve(files, root: root, into: &batch)
                for file in stillChanging {
                    batch.issues.append(LibraryIssue(path: file.relativePath, reason: .changing))
                }
            }
            changing = []
            return batch.assets.isEmpty && batch.issues.isEmpty ? nil : batch
        }
    }
}

extension PhotoLibrary {
    /// The name under which ``rescan(cursor:)`` keeps the library's last fetch result.
    public static let defaultCursor = "library"

    /// Enumerates the library again and describes what changed since the fetch result kept under
    /// `cursor` (nil when nothing did), then keeps the new result there. The first rescan, with
    /// nothing kept yet, reports every asset as inserted.
    public func rescan(cursor: String = PhotoLibrary.defaultCursor) async throws -> ChangeDetails? {
        let assets = try await allAssets().assets
        let current = FetchResult(assets: assets)
        let previous = try store?.fetchResult(named: cursor) ?? FetchResult(entries: [])
        try await store?.saveFetchResult(current, named: cursor)
        return ChangeDetails.between(previous, current)?.with(assets)
    }
}
