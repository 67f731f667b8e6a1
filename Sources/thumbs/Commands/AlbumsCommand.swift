import ArgumentParser
import Foundation
import Thumbs

struct AlbumsCommand: AsyncParsableCommand, DecodesFiles {
    static let configuration = CommandConfiguration(
        commandName: "albums",
        abstract: "List the folder albums and smart albums, with counts and key assets.",
        discussion: """
            The albums come from the catalog the last `thumbs warm` (or a running watch) kept \
            in the cache, at once, whatever the library's size; without one (or with --walk), \
            from a walk of the library.

            Example:
              thumbs albums ~/Pictures
            """)

    @OptionGroup var library: LibraryOptions

    @Flag(help: "Walk the library instead of reading the catalog the last warm or watch kept of it.")
    var walk = false

    func run() async throws {
        let photoLibrary = try await library.open().library
        let albums: [AssetCollection]
        if !walk, let catalog = try library.catalog(of: photoLibrary) {
            albums = try catalog.albums(roots: photoLibrary.roots)
        } else {
            let built = try await library.albums(of: photoLibrary).albums
            albums = built.smartAlbums + built.folderAlbums
        }
        if library.json { return try library.printJSON(albums.map(AlbumSummary.init)) }
        print(
            TextTable.render(
                header: ["album", "photos", "videos", "estimated", "key assets"],
                rows: albums.map { album in
                    [
                        album.title, "\(album.photoCount)", "\(album.videoCount)",
                        album.kind.isFolder ? "\(album.estimatedCount)" : "-",
                        album.keyAssets.map(\.relativePath).joined(separator: ", "),
                    ]
                }))
    }
}
