import SystemPackage
import ThumbsCore

/// Joins a Live Photo's still and movie into one asset as the walk lists them: the two halves
/// are files of one folder with one content identifier (Apple's MakerNote in the still,
/// `com.apple.quicktime.content.identifier` in the movie), as a phone writes them and as
/// exports and imports keep them. A half waits until its partner comes or its folder is done;
/// one that finds none is listed as it is.
struct LivePhotoPairing {
    private struct Key: Hashable {
        let root: String
        let folder: FilePath
        let identifier: String
    }

    private var stills: [Key: Asset] = [:]
    private var movies: [Key: Asset] = [:]

    /// `assets` less the halves that wait, with the pairs they complete, in their order.
    mutating func admit(_ assets: [Asset]) -> [Asset] {
        var ready: [Asset] = []
        for asset in assets {
            guard let key = Self.key(of: asset) else {
                ready.append(asset)
                continue
            }
            if asset.isVideo {
                if var still = stills.removeValue(forKey: key) {
                    still.pairedMovie = PairedMovie(asset)
                    ready.append(still)
                } else if movies[key] == nil {
                    movies[key] = asset
                } else {
                    ready.append(asset)  // a second movie of one identifier is a video of its own
                }
            } else if let movie = movies.removeValue(forKey: key) {
                var still = asset
                still.pairedMovie = PairedMovie(movie)
                ready.append(still)
            } else if stills[key] == nil {
                stills[key] = asset
            } else {
                ready.append(asset)
            }
        }
        return ready
    }

    /// The halves of `folder` that found no partner, now that the walk has left it.
    mutating func release(root: String, folder: FilePath) -> [Asset] {
        release { $0.root == root && $0.folder == folder }
    }

    /// Every half still waiting.
    mutating func releaseAll() -> [Asset] {
        release { _ in true }
    }

    private mutating func release(where matches: (Key) -> Bool) -> [Asset] {
        guard !stills.isEmpty || !movies.isEmpty else { return [] }
        let released = Array(stills.filter { matches($0.key) }.values) + movies.filter { matches($0.key) }.values
        stills = stills.filter { !matches($0.key) }
        movies = movies.filter { !matches($0.key) }
        return released.sorted { $0.relativeFilePath.bytes.lexicographicallyPrecedes($1.relativeFilePath.bytes) }
    }

    /// The key of a Live Photo's possible half: a photo or a movie with a content identifier
    /// (a motion photo carries its movie already).
    private static func key(of asset: Asset) -> Key? {
        guard let properties = asset.properties, let identifier = properties.contentIdentifier,
            !identifier.isEmpty, asset.isVideo || (asset.mediaType.isImage && properties.embeddedMovie == nil)
        else { return nil }
        return Key(root: asset.root, folder: asset.relativeFilePath.removingLastComponent(), identifier: identifier)
    }
}
