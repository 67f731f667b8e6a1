import Foundation
import ThumbsCore
import ThumbsLibrary
import ThumbsRendering
import ThumbsSupport

/// One asset as the JSON API gives it: ids and sizes, never a path (the display name is the
/// path below the library root, for people).
struct AssetJSON: Encodable, Sendable {
    var id: String
    var name: String
    var mediaType: String
    var isVideo: Bool
    /// The size as displayed (orientation applied), when the asset was probed.
    var width: Int?
    var height: Int?
    var date: String
    var day: String
    /// Names the file's current content: `?v=` of a thumbnail URL, for immutable caching.
    var version: String
    var fileSize: UInt64
    /// The ThumbHash, base64, once a thumbnail was rendered.
    var placeholder: String?
    /// PhotoKit's subtypes by name ("live"); empty for most assets.
    var mediaSubtypes: [String]
    /// A Live Photo's or a motion photo's movie.
    var motion: MotionJSON?
    /// For a frame of a burst: the burst's identifier, whether this frame stands for it, and
    /// (for the one that does) how many frames it has.
    var burst: BurstJSON?
    /// True when the thumbnails show what decoded of a damaged file (the metadata cache's
    /// partial flag); absent otherwise.
    var partial: Bool?

    init(_ asset: Asset, placeholder: String?, isPartial: Bool = false) {
        id = asset.id
        name = asset.relativePath
        mediaType = asset.mediaType.rawValue
        isVideo = asset.isVideo
        width = asset.pixelSize?.width
        height = asset.pixelSize?.height
        date = Self.dateFormat.format(asset.date)
        day = asset.day().description
        version = asset.fingerprint.version
        fileSize = asset.fileSize
        self.placeholder = placeholder
        mediaSubtypes = asset.mediaSubtypes.names
        motion = asset.motion.map { MotionJSON($0, of: asset) }
        burst = asset.burstIdentifier.map {
            BurstJSON(
                identifier: $0, representsBurst: asset.representsBurst,
                count: asset.representsBurst ? asset.burstFrameCount : nil, frames: "api/assets/\(asset.id)/burst")
        }
        partial = isPartial ? true : nil
    }

    private static let dateFormat = Date.ISO8601FormatStyle(includingFractionalSeconds: false)
}

struct BurstJSON: Encodable, Sendable {
    var identifier: String
    var representsBurst: Bool
    var count: Int?
    /// Lists the burst's frames.
    var frames: String
}

/// Where a Live Photo's movie is played from: `url` serves it with byte ranges.
struct MotionJSON: Encodable, Sendable {
    var url: String
    /// Seconds, when the movie says.
    var duration: Double?
    var contentType: String

    init(_ motion: Asset.Motion, of asset: Asset) {
        let version: String
        switch motion {
        case .paired(let movie): version = movie.fingerprint.version
        case .embedded: version = asset.fingerprint.version
        }
        url = "api/assets/\(asset.id)/motion?v=\(version)"
        duration = motion.duration
        contentType = motion.contentType
    }
}

extension Asset.Motion {
    /// The movie's `Content-Type`: a paired file's by its content, an embedded movie's MP4.
    var contentType: String {
        switch self {
        case .paired(let movie): movie.mediaType.mimeType ?? "video/quicktime"
        case .embedded: "video/mp4"
        }
    }
}

struct AssetPage: Encodable, Sendable {
    var assets: [AssetJSON]
    var nextCursor: String?
    var count: Int
    var changeToken: String
}

struct AlbumJSON: Encodable, Sendable {
    var id: String
    var title: String
    var kind: String
    /// A smart album's name in PhotoKit (`smartAlbumBursts`); absent for a folder.
    var subtype: String?
    var count: Int
    var photoCount: Int
    var videoCount: Int

    init(_ album: AssetCollection) {
        id = album.urlID
        title = album.title
        switch album.kind {
        case .folder: kind = "folder"
        case .smartAlbum(let album):
            kind = "smart"
            subtype = album.photoKitName
        }
        count = album.count(of: .all)
        photoCount = album.photoCount
        videoCount = album.videoCount
    }
}

struct AlbumPage: Encodable, Sendable {
    var albums: [AlbumJSON]
    var nextCursor: String?
    var count: Int
    var changeToken: String
}

struct MomentJSON: Encodable, Sendable {
    var day: String
    var title: String
    var count: Int
    /// The first ``assetsShown`` assets' ids: the rest page from `/api/moments/{day}/assets`,
    /// so that a day of thousands of photos costs a listing no more than a day of a few.
    var assets: [String]

    static let assetsShown = 25

    init(_ day: Day, count: Int, assets: [String]) {
        self.day = day.description
        let date = DateComponents(
            calendar: Calendar(identifier: .gregorian), year: day.year, month: day.month, day: day.day
        ).date
        title = date.map { $0.formatted(.dateTime.day().month(.wide).year()) } ?? self.day
        self.count = count
        self.assets = assets
    }
}

struct MomentPage: Encodable, Sendable {
    var moments: [MomentJSON]
    var nextCursor: String?
    var count: Int
    var changeToken: String
}

struct ChangeList: Encodable, Sendable {
    var changeToken: String
    var removed: [String]
    var inserted: [AssetJSON]
    var changed: [AssetJSON]
}

struct RenditionJSON: Encodable, Sendable {
    var name: String
    var width: Int
    var height: Int
    var contentMode: String
    var format: String
    /// `sdr`, or `gainmap`: an HDR picture's JPEG is an Ultra HDR one.
    var hdr: String
}

struct RenditionList: Encodable, Sendable {
    var renditions: [RenditionJSON]
}

/// `POST` / `DELETE /api/preheat`.
struct PreheatRequest: Decodable, Sendable {
    var assets: [String]
    var rendition: String
}

struct PreheatAnswer: Encodable, Sendable {
    /// Assets this client is preheating now, over all renditions.
    var preheating: Int
    /// Ids of the request that name no asset.
    var unknown: [String]
}

extension FileFingerprint {
    /// 16 hex digits naming this size and modification time (FNV-1a): what `?v=` carries.
    var version: String {
        var hash = FNV1a()
        hash.add(size)
        hash.add(UInt64(bitPattern: modificationTimeNanoseconds))
        return hash.hex
    }
}
