import Foundation
import ThumbsCore

/// The albums Thumbs makes from the assets' properties, as PhotoKit's smart albums.
public enum SmartAlbum: String, Sendable, Hashable, CaseIterable {
    case allPhotos = "All Photos"
    case videos = "Videos"
    case recentlyAdded = "Recently Added"
    case livePhotos = "Live Photos"
    case portrait = "Portrait"
    case panoramas = "Panoramas"
    case timelapses = "Time-lapse"
    case slomoVideos = "Slo-mo"
    case bursts = "Bursts"
    case screenshots = "Screenshots"
    case hdr = "HDR"

    /// How recent "recently added" is (by the file's modification time).
    public static let recentInterval: TimeInterval = 30 * 24 * 3600

    /// PhotoKit's name for it (`PHAssetCollectionSubtype`); HDR, which PhotoKit has no smart
    /// album for, is named in the same way.
    public var photoKitName: String {
        switch self {
        case .allPhotos: "smartAlbumUserLibrary"
        case .videos: "smartAlbumVideos"
        case .recentlyAdded: "smartAlbumRecentlyAdded"
        case .livePhotos: "smartAlbumLivePhotos"
        case .portrait: "smartAlbumDepthEffect"
        case .panoramas: "smartAlbumPanoramas"
        case .timelapses: "smartAlbumTimelapses"
        case .slomoVideos: "smartAlbumSlomoVideos"
        case .bursts: "smartAlbumBursts"
        case .screenshots: "smartAlbumScreenshots"
        case .hdr: "smartAlbumHDR"
        }
    }

    /// Whether the album is listed when it holds nothing: only the library itself is.
    var isListedEmpty: Bool { self == .allPhotos }

    func contains(_ asset: Asset, now: Date) -> Bool {
        switch self {
        case .allPhotos: !asset.isVideo
        case .videos: asset.isVideo
        case .recentlyAdded: now.timeIntervalSince(asset.modificationDate) <= Self.recentInterval
        case .livePhotos: asset.mediaSubtypes.contains(.photoLive)
        case .portrait: asset.mediaSubtypes.contains(.photoDepthEffect)
        case .panoramas: asset.mediaSubtypes.contains(.photoPanorama)
        case .timelapses: asset.mediaSubtypes.contains(.videoTimelapse)
        case .slomoVideos: asset.mediaSubtypes.contains(.videoHighFrameRate)
        case .bursts: asset.burstIdentifier != nil
        case .screenshots: asset.mediaSubtypes.contains(.photoScreenshot)
        case .hdr: asset.mediaSubtypes.contains(.photoHDR)
        }
    }
}
