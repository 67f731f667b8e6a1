import SystemPackage
import ThumbsCore
import ThumbsStore
import ThumbsSupport

/// One walk of a root held against the folder listings the cache keeps (`FolderListing`):
/// which files are gone since the last walk that kept them, and the listings to keep now.
///
/// Each folder is compared when the walk leaves it (``OpenFolders`` gathers its files), so
/// memory holds the folders the walk is in, not the library. A folder the walk did not reach is gone once the whole root was walked,
/// unless it lies under a folder the walk could not read. A root that holds no file at all,
/// where listings were kept, is taken for a disk that is not mounted: nothing of it is gone.
struct FolderListingWalk {
    /// A file of an earlier listing that the walk no longer finds.
    struct GoneFile: Sendable, Hashable {
        let path: FilePath
        let fingerprint: FileFingerprint
    }

    let root: String
    let store: ThumbnailStore
    private var visited: Set<UInt64> = []
    private var unreadable: [String] = []
    private var sawFiles = false

    init(root: String, store: ThumbnailStore) {
        self.root = root
        self.store = store
    }

    /// A folder the walk left whose files are not those of its kept listing.
    struct Change: Sendable {
        /// Its listing now.
        let listing: FolderListing
        /// Its kept listing's files that it no longer holds.
        let gone: [GoneFile]
    }

    /// Takes what one step of the walk found, its left folders gathered by ``OpenFolders``;
    /// returns those that changed.
    mutating func take(_ step: LibraryWalker.Step, left: [(path: FilePath, folder: OpenFolders.Folder)])
        throws(StoreError) -> [Change]
    {
        if !step.files.isEmpty { sawFiles = true }
        for issue in step.issues {
            if case .unreadableFolder = issue.reason { unreadable.append(issue.path) }
        }
        var changes: [Change] = []
        for (folder, found) in left {
            let bytes = folder.bytes
            visited.insert(FolderListing.folderHash(bytes))
            // An unchanged folder is told by its digest alone: no name is read or sorted.
            let recorded = try store.folderListingDigest(root: root, folder: bytes)
            guard recorded != found.digest.recorded, recorded != nil || !found.files.isEmpty else { continue }
            let files = found.files.map {
                FolderListing.File(name: Self.name(of: $0.path), fingerprint: $0.fingerprint)
            }
            .sorted { $0.name.lexicographicallyPrecedes($1.name) }
            let kept = recorded == nil ? nil : try store.folderListing(root: root, folder: bytes)
            changes.append(
                Change(
                    listing: FolderListing(root: root, folder: bytes, files: files),
                    gone: kept.map { Self.gone(from: $0, now: files) } ?? []))
        }
        return changes
    }

    /// After the whole root was walked: the listings of folders it did not reach (to remove),
    /// and their files, gone; or none of them where the root held no file at all.
    func finish() throws(StoreError) -> (removed: [[UInt8]], gone: [GoneFile], emptyRoot: LibraryIssue?) {
        let missing = try store.folderListings(under: root, except: visited).filter { listing in
            let shown = FilePath(bytes: listing.folder).displayString
            return !unreadable.contains { $0 == "." || shown == $0 || shown.hasPrefix($0 + "/") }
        }
        if !sawFiles {
            // The root's own listing is visited, and still holds what it held: its files count too.
            let rootFiles = try store.folderListing(root: root, folder: [])?.files.count ?? 0
            let listed = missing.reduce(rootFiles) { $0 + $1.files.count }
            if listed > 0 { return ([], [], LibraryIssue(path: ".", reason: .emptyRoot(listed: listed), root: root)) }
        }
        return (missing.map(\.folder), missing.flatMap { Self.gone(from: $0, now: []) }, nil)
    }

    /// The files of `listing` that `files` (sorted by name) no longer holds.
    private static func gone(from listing: FolderListing, now files: [FolderListing.File]) -> [GoneFile] {
        let names = Set(files.map(\.name))
        let folder = FilePath(bytes: listing.folder)
        return listing.files.filter { !names.contains($0.name) }.map { file in
            GoneFile(path: folder.appending(FilePath(bytes: file.name).components), fingerprint: file.fingerprint)
        }
    }

    /// The bytes of a path's last component, as the file system has them.
    private static func name(of path: FilePath) -> [UInt8] {
        path.lastComponent.map { FilePath(root: nil, [$0]).bytes } ?? []
    }
}
