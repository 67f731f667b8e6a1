import SystemPackage
import ThumbsCore

/// Finds, as the walk lists them, the frame that stands for each burst: the frames of one burst
/// share an identifier and a folder (a phone writes a burst at once, into one folder). A frame
/// waits until its folder is done; then every frame of the burst is listed, the cover (else the
/// first frame taken) marked ``Asset/representsBurst`` with the burst's frame count.
struct BurstGrouping {
    private var frames = FolderHeldGroups()

    /// `assets` less the burst frames, which wait for their folder to be done.
    mutating func admit(_ assets: [Asset]) -> [Asset] {
        frames.admit(assets, identifier: \.burstIdentifier)
    }

    /// The bursts of `folder`, now that the walk has left it: every frame, the representative
    /// marked.
    mutating func release(root: String, folder: FilePath) -> [Asset] {
        frames.release(root: root, folder: folder).flatMap(Self.marked)
    }

    /// Every burst still waiting.
    mutating func releaseAll() -> [Asset] {
        frames.releaseAll().flatMap(Self.marked)
    }

    /// The frames of one burst, the one that stands for it marked: the cover the camera chose,
    /// else the first taken (ties by name).
    private static func marked(_ burst: [Asset]) -> [Asset] {
        var frames = burst.sorted { ($0.date, $0.relativePath) < ($1.date, $1.relativePath) }
        let representative = frames.firstIndex { $0.properties?.burst?.isCover == true } ?? 0
        frames[representative].representsBurst = true
        frames[representative].burstFrameCount = frames.count
        return frames
    }
}
