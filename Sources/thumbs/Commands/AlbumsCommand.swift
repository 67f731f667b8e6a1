import ArgumentParser
import Foundation
import Thumbs

struct AlbumsCommand: AsyncParsableCommand, DecodesFiles {
    static let configuration = CommandConfiguration(
        commandName: "albums",
        abstract: "List the folder albums and smart albums, with counts and key assets.",
        discussion: """
            Example:
              thumbs albums ~/Pictures
            """)

    @OptionGroup var library: LibraryOptions

    func run() async throws {
        let photoLibrary = try await library.open().library
        let built = try await library.albums(of: photoLibrary).albums
        let albums = built.smartAlbums + built.folderAlbums
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
