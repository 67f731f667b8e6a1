import Foundation

/// The albums Thumbs makes from the assets' properties.
public enum SmartAlbum: String, Sendable, Hashable, CaseIterable {
    case allPhotos = "All Photos"
    case videos = "Videos"
    case recentlyAdded = "Recently Added"
    case panoramas = "Panoramas"
    case livePhotos = "Live Photos"

    /// How recent "recently added" is (by the file's modification time).
    public static let recentInterval: TimeInterval = 30 * 24 * 3600

    func contains(_ asset: Asset, now: Date) -> Bool {
        switch self {
        case .allPhotos: !asset.isVideo
        case .videos: asset.isVideo
        case .recentlyAdded: now.timeIntervalSince(asset.modificationDate) <= Self.recentInterval
        case .panoramas: asset.mediaSubtypes.contains(.photoPanorama)
        case .livePhotos: asset.mediaSubtypes.contains(.photoLive)
        }
    }
}
