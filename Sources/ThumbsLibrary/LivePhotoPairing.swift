import SystemPackage
import ThumbsCore
import ThumbsSupport

/// Joins a Live Photo's still and movie into one asset as the walk lists them: the two halves
/// are files of one folder with one content identifier (Apple's MakerNote in the still,
/// `com.apple.quicktime.content.identifier` in the movie), as a phone writes them and as
/// exports and imports keep them. Halves wait until the walk has left their folder, so that
/// the pairs never depend on the order the folder lists its files in: a still pairs first with
/// the movie of its own name (IMG_0001.HEIC with IMG_0001.MOV, beside a duplicate import's
/// IMG_0001 (1).HEIC and .MOV), then the rest pair in the order of their names; a half that
/// finds no partner is listed as it is.
struct LivePhotoPairing {
    private var halves = FolderHeldGroups()

    /// `assets` less the halves of Live Photos, which wait for their folder to be done.
    mutating func admit(_ assets: [Asset]) -> [Asset] {
        halves.admit(assets, identifier: Self.identifier)
    }

    /// The Live Photos of `folder`, and the halves that found no partner, now that the walk has
    /// left it.
    mutating func release(root: String, folder: FilePath) -> [Asset] {
        halves.release(root: root, folder: folder).flatMap(Self.paired).sorted(by: Self.byPath)
    }

    /// Every half still waiting, paired where it can be.
    mutating func releaseAll() -> [Asset] {
        halves.releaseAll().flatMap(Self.paired).sorted(by: Self.byPath)
    }

    /// The stills of one identifier with their movies, and whatever found no partner.
    private static func paired(_ group: [Asset]) -> [Asset] {
        var stills = group.filter { !$0.isVideo }.sorted(by: byPath)
        var movies = group.filter(\.isVideo).sorted(by: byPath)
        for (index, still) in stills.enumerated() {
            guard let movie = movies.firstIndex(where: { $0.relativeFilePath.stem == still.relativeFilePath.stem })
            else { continue }
            stills[index].pairedMovie = PairedMovie(movies.remove(at: movie))
        }
        for index in stills.indices where stills[index].pairedMovie == nil && !movies.isEmpty {
            stills[index].pairedMovie = PairedMovie(movies.removeFirst())
        }
        return stills + movies
    }

    private static func byPath(_ lhs: Asset, _ rhs: Asset) -> Bool {
        lhs.relativeFilePath.bytes.lexicographicallyPrecedes(rhs.relativeFilePath.bytes)
    }

    /// The content identifier of a Live Photo's possible half: a photo or a movie with one (a
    /// motion photo carries its movie already).
    private static func identifier(of asset: Asset) -> String? {
        guard let properties = asset.properties, let identifier = properties.contentIdentifier,
            !identifier.isEmpty, asset.isVideo || (asset.mediaType.isImage && properties.embeddedMovie == nil)
        else { return nil }
        return identifier
    }
}
