import SystemPackage
import ThumbsLibrary
import ThumbsStore
import ThumbsSupport

/// The folders of a walk that passes over warmed folders, as a ``WarmJob`` deals with their
/// assets: a folder all of whose assets were found current or kept, none failed, gets its
/// ``/ThumbsStore/WarmedFolder`` record once the walk has marked its end
/// (``/ThumbsLibrary/LibraryBatch/folderEnds``). Only the folders under way are held.
struct WarmedFolderTally {
    private struct Key: Hashable {
        let root: String
        let folder: FilePath
    }

    private struct Folder {
        /// The cache's removal generation before the first of its assets was looked at.
        let generation: Int64
        var assets = 0
        var admitted = 0
        /// Admitted assets whose work has not come back.
        var outstanding = 0
        var clean = true
        var end: LibraryBatch.FolderEnd?

        /// Its records, one per context, once it is over, if nothing of it failed.
        var records: [WarmedFolder] {
            guard isOver, let end, end.clean, clean else { return [] }
            return end.contexts.map {
                WarmedFolder(
                    root: end.root, folder: end.folder.bytes, digest: end.digest, context: $0,
                    generation: generation, assets: assets)
            }
        }

        var isOver: Bool { end != nil && admitted == assets && outstanding == 0 }
    }

    private var folders: [Key: Folder] = [:]

    /// Takes a batch's assets and folder ends; `generation` reads the cache's removal
    /// generation, asked only when a folder is new.
    mutating func take(_ batch: WarmBatch, generation: () async throws -> Int64) async throws -> [WarmedFolder] {
        var now: Int64?
        func generationNow() async throws -> Int64 {
            if let now { return now }
            let read = try await generation()
            now = read
            return read
        }
        for asset in batch.assets {
            let key = Self.key(of: asset)
            if folders[key] == nil { folders[key] = Folder(generation: try await generationNow()) }
            folders[key]?.assets += 1
        }
        var finished: [WarmedFolder] = []
        for end in batch.folderEnds ?? [] {
            let key = Key(root: end.root, folder: end.folder)
            if folders[key] == nil { folders[key] = Folder(generation: try await generationNow()) }
            folders[key]?.end = end
            finished += settle(key)
        }
        return finished
    }

    /// Notes that `asset` was admitted: with work to come back (`working`), or none.
    mutating func admitted(_ asset: Asset, working: Bool, clean: Bool = true) -> [WarmedFolder] {
        let key = Self.key(of: asset)
        guard folders[key] != nil else { return [] }
        folders[key]?.admitted += 1
        if working { folders[key]?.outstanding += 1 }
        if !clean { folders[key]?.clean = false }
        return settle(key)
    }

    /// Notes that the work of `asset` came back: kept (`clean`), or failed or cancelled.
    mutating func cameBack(_ asset: Asset, clean: Bool) -> [WarmedFolder] {
        let key = Self.key(of: asset)
        guard folders[key] != nil else { return [] }
        folders[key]?.outstanding -= 1
        if !clean { folders[key]?.clean = false }
        return settle(key)
    }

    /// The record of the folder under `key` once it is over (then no longer held).
    private mutating func settle(_ key: Key) -> [WarmedFolder] {
        guard let folder = folders[key], folder.isOver else { return [] }
        folders[key] = nil
        return folder.records
    }

    private static func key(of asset: Asset) -> Key {
        Key(root: asset.root, folder: asset.relativeFilePath.removingLastComponent())
    }
}
