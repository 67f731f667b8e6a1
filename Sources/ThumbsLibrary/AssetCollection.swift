import Foundation
import ThumbsRendering
import ThumbsStore
import ThumbsSupport

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
    /// Assets by type, from their content; a burst counts once, as PhotoKit counts it.
    public var photoCount = 0
    public var videoCount = 0
    /// Bytes of the assets' files (from the metadata cache when it is warm), every burst
    /// frame's included.
    public var totalBytes: UInt64 = 0
    /// Up to three assets for a poster: newest first, those whose header could be read (and so
    /// can be drawn) before those whose could not.
    public private(set) var keyAssets: [Asset] = []
    /// A folder album's path as the file system spells it, when it came from the catalog: its
    /// ``Kind/folder(root:path:)`` path is for display, and a name that is not UTF-8 loses bytes there.
    var folderBytes: [UInt8]?

    public var id: String {
        switch kind {
        case .folder(let root, let path): Self.folderID(root: root, path: path)
        case .smartAlbum(let album): Self.smartAlbumID(album)
        }
    }

    /// The ``id`` of a smart album, without building the album.
    public static func smartAlbumID(_ album: SmartAlbum) -> String {
        "smart:" + album.rawValue
    }

    /// The ``id`` of the album of the folder at `path` under `root` (an asset's ``Asset/folder``),
    /// without building the album.
    public static func folderID(root: String, path: String) -> String {
        "folder:" + AssetID.make(root: root, relativePath: path)
    }

    init(kind: Kind, title: String) {
        self.kind = kind
        self.title = title
    }

    /// A collection as a catalog counted it.
    init(
        kind: Kind, title: String, photoCount: Int, videoCount: Int, totalBytes: UInt64, estimatedCount: Int,
        keyAssets: [Asset]
    ) {
        self.init(kind: kind, title: title)
        self.photoCount = photoCount
        self.videoCount = videoCount
        self.totalBytes = totalBytes
        self.estimatedCount = estimatedCount
        self.keyAssets = keyAssets
    }

    /// The accurate count of the assets matching `filter`.
    public func count(of filter: MediaFilter) -> Int {
        switch filter {
        case .all: photoCount + videoCount
        case .photos: photoCount
        case .videos: videoCount
        }
    }

    /// Whether `asset` belongs to the collection (`now` decides what "recently added" means),
    /// a burst's every frame included.
    public func contains(_ asset: Asset, now: Date = Date()) -> Bool {
        switch kind {
        case .folder(let root, let path): asset.root == root && asset.folder == path
        case .smartAlbum(let album): album.contains(asset, now: now)
        }
    }

    mutating func add(_ asset: Asset) {
        totalBytes += asset.fileSize
        guard !asset.isHiddenBurstFrame else { return }
        if asset.isVideo { videoCount += 1 } else { photoCount += 1 }
        let position = keyAssets.firstIndex { Self.isBetterKey(asset, than: $0) } ?? keyAssets.count
        if position < 3 {
            keyAssets.insert(asset, at: position)
            if keyAssets.count > 3 { keyAssets.removeLast() }
        }
    }

    static func isBetterKey(_ asset: Asset, than other: Asset) -> Bool {
        let readable = asset.properties != nil, otherReadable = other.properties != nil
        return readable != otherReadable ? readable : isNewer(asset.date, asset.id, than: other)
    }

    /// Newest first; the id breaks ties so the order is total and stable.
    static func isNewer(_ date: Date, _ id: String, than other: Asset) -> Bool {
        let otherDate = other.date
        return date != otherDate ? date > otherDate : id < other.id
    }
}

extension AssetCollection {
    var sortKey: String {
        switch kind {
        case .folder(let root, let path): root + "\u{0}" + path
        case .smartAlbum(let album): album.rawValue
        }
    }
}
