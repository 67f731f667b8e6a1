import SystemPackage
import ThumbsCore

/// Finds, as the walk lists them, the frame that stands for each burst: the frames of one burst
/// share an identifier and a folder (a phone writes a burst at once, into one folder). A frame
/// waits until its folder is done; then every frame of the burst is listed, the cover (else the
/// first frame taken) marked ``Asset/representsBurst`` with the burst's frame count.
struct BurstGrouping {
    private struct Key: Hashable {
        let root: String
        let folder: FilePath
        let identifier: String
    }

    private var frames: [Key: [Asset]] = [:]

    /// `assets` less the burst frames, which wait for their folder to be done.
    mutating func admit(_ assets: [Asset]) -> [Asset] {
        var ready: [Asset] = []
        for asset in assets {
            guard let identifier = asset.burstIdentifier else {
                ready.append(asset)
                continue
            }
            let key = Key(
                root: asset.root, folder: asset.relativeFilePath.removingLastComponent(), identifier: identifier)
            frames[key, default: []].append(asset)
        }
        return ready
    }

    /// The bursts of `folder`, now that the walk has left it: every frame, the representative
    /// marked.
    mutating func release(root: String, folder: FilePath) -> [Asset] {
        release { $0.root == root && $0.folder == folder }
    }

    /// Every burst still waiting.
    mutating func releaseAll() -> [Asset] {
        release { _ in true }
    }

    private mutating func release(where matches: (Key) -> Bool) -> [Asset] {
        guard !frames.isEmpty else { return [] }
        let done = frames.filter { matches($0.key) }
        frames = frames.filter { !matches($0.key) }
        return done.sorted { $0.key.identifier < $1.key.identifier }.flatMap { Self.marked($0.value) }
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
