import Thumbs

extension AssetCollection.Kind {
    var isFolder: Bool {
        if case .folder = self { return true }
        return false
    }
}

struct AlbumSummary: Encodable {
    let title: String
    let kind: String
    /// A smart album's name in PhotoKit (`smartAlbumBursts`); absent for a folder.
    let subtype: String?
    let estimatedCount: Int?
    let photos: Int
    let videos: Int
    let bytes: UInt64
    let keyAssets: [String]

    init(_ album: AssetCollection) {
        title = album.title
        kind = album.kind.isFolder ? "folder" : "smart"
        if case .smartAlbum(let smart) = album.kind { subtype = smart.photoKitName } else { subtype = nil }
        estimatedCount = album.kind.isFolder ? album.estimatedCount : nil
        photos = album.photoCount
        videos = album.videoCount
        bytes = album.totalBytes
        keyAssets = album.keyAssets.map(\.relativePath)
    }
}
