import SystemPackage
import ThumbsCore
import ThumbsStore

/// The folder listings of one walk over every root of a library (see
/// ``PhotoLibrary/assets(batchSize:keepingListings:)``): a folder's new listing is kept as soon
/// as the walk leaves it when nothing of it is gone, else held, with the listings of folders
/// that are gone, until the caller has forgotten what is gone (``keep()``). Only what changed is
/// held, so memory follows the change, not the library.
struct FolderListingKeeper {
    let store: ThumbnailStore
    let shard: LibraryShard?
    private var walk: FolderListingWalk?
    private var held: [FolderListing] = []
    private var removed: [(root: String, folders: [[UInt8]])] = []
    private var gone: [(root: String, file: FolderListingWalk.GoneFile)] = []
    /// The root being walked's, until its walk ends: an empty root's are dropped.
    private var rootHeld: [FolderListing] = []
    private var rootGone: [FolderListingWalk.GoneFile] = []
    private var emptyRoots: [LibraryIssue] = []

    init(store: ThumbnailStore, shard: LibraryShard?) {
        self.store = store
        self.shard = shard
    }

    /// Takes one step of the walk of `root`, with the folders it left, keeping the listings that
    /// can be kept now.
    mutating func take(
        _ step: LibraryWalker.Step, left: [(path: FilePath, folder: OpenFolders.Folder)], root: String
    ) async throws {
        var walk = walk ?? FolderListingWalk(root: root, store: store)
        // Held here alone while it takes the step, so that what it gathers grows in place.
        self.walk = nil
        var keptNow: [FolderListing] = []
        for change in try walk.take(step, left: left) {
            if change.gone.isEmpty {
                keptNow.append(change.listing)
            } else {
                rootHeld.append(change.listing)
                rootGone += change.gone
            }
        }
        try await store.putFolderListings(keptNow)
        if step.finished {
            let end = try walk.finish()
            if let emptyRoot = end.emptyRoot {
                emptyRoots.append(emptyRoot)
            } else {
                held += rootHeld
                removed.append((root, end.removed))
                gone += (rootGone + end.gone).map { (root, $0) }
            }
            (rootHeld, rootGone) = ([], [])
            self.walk = nil
        } else {
            self.walk = walk
        }
    }

    /// The files gone from the library (this shard's), as assets of the type the metadata cache
    /// had for them, and the roots taken for disks not mounted; each reported once.
    mutating func report() -> (gone: [Asset], emptyRoots: [LibraryIssue]) {
        var assets: [Asset] = []
        for (root, file) in gone {
            let id = AssetID.make(root: root, relativeFilePath: file.path)
            guard shard?.contains(assetID: id) ?? true else { continue }
            // A record that cannot be read costs the type only: the asset is forgotten all the same.
            let type = ((try? store.metadata(for: id)) ?? nil)?.mediaType ?? .unsupported
            assets.append(
                Asset(root: root, relativeFilePath: file.path, mediaType: type, fingerprint: file.fingerprint))
        }
        defer { (gone, emptyRoots) = ([], []) }
        return (assets, emptyRoots)
    }

    /// Keeps what was held: once what is gone was forgotten.
    mutating func keep() async throws {
        try await store.putFolderListings(held)
        for entry in removed { try await store.removeFolderListings(root: entry.root, folders: entry.folders) }
        (held, removed) = ([], [])
    }
}
