import SystemPackage
import ThumbsCore
import ThumbsStore
import ThumbsSupport

/// The folders of a walk, for a warm that passes over the folders it left with nothing to do
/// before (``/ThumbsStore/WarmedFolder``): as the walk leaves each folder (``OpenFolders``), a
/// folder whose files have the digest its record was kept at counts its assets
/// from the record, and any other is handed on, to be resolved a batch at a time. Memory holds
/// the folders the walk is in and those left to resolve, not the library.
struct WarmedFolderSkip {
    /// A folder the walk left that was not warmed as it is, with the files left to resolve.
    struct LeftFolder {
        let root: String
        let folder: FilePath
        let digest: UInt64
        /// The contexts its record is kept for (``WarmedFolderSkip/recordContexts``).
        let contexts: [UInt64]
        var files: ArraySlice<LibraryWalker.File>
        /// Whether every file of it so far became an asset without an issue.
        var clean: Bool
    }

    let store: ThumbnailStore
    /// The warm's context, the walk's shard and hidden files mixed in.
    let context: UInt64
    /// The contexts a folder the warm leaves with nothing to do is recorded for: its own, and
    /// that of a walk that only lists the library (``/ThumbsLibrary/LibraryCatalog/listingContext``)
    /// with the same shard and hidden files. Such a warm has kept the folder's assets in the
    /// catalog as they are, which is all a listing walk needs to pass over it: the server's
    /// first walk after a warm then reads no folder the warm left.
    let recordContexts: [UInt64]
    /// Folders in which the walk met an issue (a file it could not read, say).
    private var troubled: Set<FilePath> = []
    /// Folders left to resolve, in the order the walk left them (a few at a time).
    private var left: [LeftFolder] = []

    init(store: ThumbnailStore, context: UInt64, shard: LibraryShard?, includeHidden: Bool) {
        self.store = store
        func mixed(_ context: UInt64) -> UInt64 {
            var mixed = FNV1a()
            mixed.add(context)
            mixed.add(UInt64(shard?.index ?? 0))
            mixed.add(UInt64(shard?.count ?? 0))
            mixed.add(includeHidden ? 1 as UInt64 : 0)
            return mixed.value
        }
        self.context = mixed(context)
        let listing = mixed(LibraryCatalog.listingContext)
        recordContexts = listing == self.context ? [listing] : [self.context, listing]
    }

    /// Takes one step of the walk of `root`, with the folders it left; returns how many assets
    /// those that were warmed as they are hold.
    mutating func take(
        _ step: LibraryWalker.Step, left folders: [(path: FilePath, folder: OpenFolders.Folder)], root: String
    ) throws(StoreError) -> Int {
        for issue in step.issues { troubled.insert(FilePath(issue.path).removingLastComponent()) }
        var warmed = 0
        for (folder, found) in folders {
            let clean = troubled.remove(folder) == nil
            let digest = found.digest.recorded
            if clean, let record = try store.warmedFolder(root: root, folder: folder.bytes, context: context),
                record.digest == digest
            {
                warmed += record.assets
                continue
            }
            guard !found.files.isEmpty else { continue }
            left.append(
                LeftFolder(
                    root: root, folder: folder, digest: digest, contexts: recordContexts, files: found.files[...],
                    clean: clean))
        }
        return warmed
    }

    /// Up to `limit` files of the first folder left to resolve, that folder, and whether they
    /// are its last (it is then no longer held).
    mutating func nextFiles(limit: Int) -> (folder: LeftFolder, files: [LibraryWalker.File], last: Bool)? {
        guard var first = left.first else { return nil }
        let files = Array(first.files.prefix(limit))
        first.files = first.files.dropFirst(files.count)
        let last = first.files.isEmpty
        if last { left.removeFirst() } else { left[0] = first }
        return (first, files, last)
    }

    /// Marks the first folder left to resolve as not clean: its files given last met an issue.
    mutating func markFirstTroubled() {
        if !left.isEmpty { left[0].clean = false }
    }
}
