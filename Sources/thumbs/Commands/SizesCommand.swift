import ArgumentParser
import Foundation
import Thumbs

struct SizesCommand: AsyncParsableCommand, DecodesFiles {
    static let configuration = CommandConfiguration(
        commandName: "sizes",
        abstract: "Bytes of the library's files per album and in total, from the metadata cache.",
        discussion: """
            Sizes come from the metadata cache while files are unchanged, so a second run reads \
            no file: it only lists folders and compares sizes and modification times. Once \
            `thumbs warm` walked the library, they come from the catalog it kept in the cache, \
            without a walk (--walk walks all the same).

            Example:
              thumbs sizes ~/Pictures
            """)

    @OptionGroup var library: LibraryOptions

    @Flag(help: "Walk the library instead of reading the catalog the last warm or watch kept of it.")
    var walk = false

    func run() async throws {
        let photoLibrary = try await library.open().library
        let albums: [AssetCollection], fromCache: Int, read: Int
        // Every asset is in one of these two.
        let all = { (albums: [AssetCollection]) in
            albums.filter { $0.kind == .smartAlbum(.allPhotos) || $0.kind == .smartAlbum(.videos) }
        }
        if !walk, let catalog = try library.catalog(of: photoLibrary) {
            albums = try catalog.albums(roots: photoLibrary.roots)
            // From the catalog, a collection's estimate is its assets' files.
            fromCache = all(albums).reduce(0) { $0 + $1.estimatedCount }
            read = 0
        } else {
            let enumeration = try await library.albums(of: photoLibrary)
            albums = enumeration.albums.smartAlbums + enumeration.albums.folderAlbums
            (fromCache, read) = (enumeration.fromCache, enumeration.inspected)
        }
        let folders = albums.filter(\.kind.isFolder)
        let total = all(albums).reduce(UInt64(0)) { $0 + $1.totalBytes }
        if library.json {
            return try library.printJSON(
                SizesSummary(
                    albums: folders.map {
                        SizesSummary.Album(album: $0.title, bytes: $0.totalBytes, assets: $0.count(of: .all))
                    },
                    totalBytes: total, filesFromCache: fromCache, filesRead: read))
        }
        var rows = folders.map {
            [$0.title, "\($0.count(of: .all))", "\($0.totalBytes)", ByteCount(Int64($0.totalBytes)).description]
        }
        rows.append([
            "total", "\(folders.reduce(0) { $0 + $1.count(of: .all) })", "\(total)",
            ByteCount(Int64(total)).description,
        ])
        print(TextTable.render(header: ["album", "assets", "bytes", "size"], rows: rows))
        print("\(fromCache) files from the metadata cache, \(read) read")
    }
}
