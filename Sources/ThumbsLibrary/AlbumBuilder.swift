import Foundation

/// Folder albums and smart albums, built batch by batch while the library is enumerated: memory
/// grows with the number of folders, not of assets.
public struct AlbumBuilder: Sendable {
    private var folders: [String: AssetCollection] = [:]
    private var smart: [SmartAlbum: AssetCollection]
    private let now: Date

    public init(now: Date = Date()) {
        self.now = now
        smart = Dictionary(
            uniqueKeysWithValues: SmartAlbum.allCases.map {
                ($0, AssetCollection(kind: .smartAlbum($0), title: $0.rawValue))
            })
    }

    public mutating func add(_ batch: LibraryBatch) {
        for (folder, count) in batch.estimatedByFolder {
            folders[folder.key, default: Self.album(folder)].estimatedCount += count
        }
        for asset in batch.assets {
            let folder = LibraryBatch.Folder(root: asset.root, path: asset.folder)
            folders[folder.key, default: Self.album(folder)].add(asset)
            for album in SmartAlbum.allCases where album.contains(asset, now: now) {
                smart[album]?.add(asset)
            }
        }
    }

    /// Folders holding at least one asset, by path.
    public var folderAlbums: [AssetCollection] {
        folders.values.filter { $0.count(of: .all) > 0 }.sorted { $0.sortKey < $1.sortKey }
    }

    /// The smart albums holding assets, the library's own ("All Photos") always.
    public var smartAlbums: [AssetCollection] {
        SmartAlbum.allCases.compactMap { smart[$0] }.filter { album in
            guard case .smartAlbum(let kind) = album.kind, !kind.isListedEmpty else { return true }
            return album.count(of: .all) > 0
        }
    }

    private static func album(_ folder: LibraryBatch.Folder) -> AssetCollection {
        AssetCollection(kind: .folder(root: folder.root, path: folder.path), title: folder.title)
    }
}
