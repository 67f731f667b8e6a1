import Foundation

/// A group of assets, as `PHAssetCollection`: a folder album, a smart album or a moment.
public struct AssetCollection: Sendable, Hashable, Identifiable {
    public enum Kind: Sendable, Hashable {
        /// A folder holding media; `path` is relative to `root` ("" for the root itself).
        case folder(root: String, path: String)
        case smartAlbum(SmartAlbum)
    }

    public var kind: Kind
    public var title: String
    /// Files whose names say photo or video, counted by the walk without reading them: cheap,
    /// and known before any file is read (it may count a text file named ".jpg").
    public var estimatedCount = 0
    /// Assets by type, from their content.
    public var photoCount = 0
    public var videoCount = 0
    /// Bytes of the assets' files (from the metadata cache when it is warm).
    public var totalBytes: UInt64 = 0
    /// Up to three assets, newest first, for a poster.
    public private(set) var keyAssets: [Asset] = []

    public var id: String {
        switch kind {
        case .folder(let root, let path): "folder:" + AssetID.make(root: root, relativePath: path)
        case .smartAlbum(let album): "smart:" + album.rawValue
        }
    }

    init(kind: Kind, title: String) {
        self.kind = kind
        self.title = title
    }

    /// The accurate count of the assets matching `filter`.
    public func count(of filter: MediaFilter) -> Int {
        switch filter {
        case .all: photoCount + videoCount
        case .photos: photoCount
        case .videos: videoCount
        }
    }

    mutating func add(_ asset: Asset) {
        if asset.isVideo { videoCount += 1 } else { photoCount += 1 }
        totalBytes += asset.fileSize
        let date = asset.date
        let position = keyAssets.firstIndex { Self.isNewer(date, asset.id, than: $0) } ?? keyAssets.count
        if position < 3 {
            keyAssets.insert(asset, at: position)
            if keyAssets.count > 3 { keyAssets.removeLast() }
        }
    }

    /// Newest first; the id breaks ties so the order is total and stable.
    static func isNewer(_ date: Date, _ id: String, than other: Asset) -> Bool {
        let otherDate = other.date
        return date != otherDate ? date > otherDate : id < other.id
    }
}

/// Which assets a count covers.
public enum MediaFilter: String, Sendable, CaseIterable {
    case all, photos, videos
}

/// The albums Thumbs makes from the assets' properties.
public enum SmartAlbum: String, Sendable, Hashable, CaseIterable {
    case allPhotos = "All Photos"
    case videos = "Videos"
    case recentlyAdded = "Recently Added"
    case panoramas = "Panoramas"

    /// How recent "recently added" is (by the file's modification time).
    public static let recentInterval: TimeInterval = 30 * 24 * 3600

    func contains(_ asset: Asset, now: Date) -> Bool {
        switch self {
        case .allPhotos: !asset.isVideo
        case .videos: asset.isVideo
        case .recentlyAdded: now.timeIntervalSince(asset.modificationDate) <= Self.recentInterval
        case .panoramas:
            asset.pixelSize.map { max($0.width, $0.height) >= 2 * min($0.width, $0.height) } ?? false
        }
    }
}

/// Folder albums and smart albums, built batch by batch while the library is enumerated: memory
/// grows with the number of folders, not of assets.
public struct AlbumBuilder: Sendable {
    private var folders: [String: AssetCollection] = [:]
    private var smart: [SmartAlbum: AssetCollection]
    private let now: Date

    public init(now: Date = Date()) {
        self.now = now
        smart = Dictionary(uniqueKeysWithValues: SmartAlbum.allCases.map {
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

    public var smartAlbums: [AssetCollection] {
        SmartAlbum.allCases.compactMap { smart[$0] }
    }

    private static func album(_ folder: LibraryBatch.Folder) -> AssetCollection {
        AssetCollection(kind: .folder(root: folder.root, path: folder.path), title: folder.title)
    }
}

extension AssetCollection {
    fileprivate var sortKey: String {
        switch kind {
        case .folder(let root, let path): root + "\u{0}" + path
        case .smartAlbum(let album): album.rawValue
        }
    }
}
