import ArgumentParser
import Foundation
import Thumbs

struct SizesCommand: AsyncParsableCommand, DecodesFiles {
    static let configuration = CommandConfiguration(
        commandName: "sizes",
        abstract: "Bytes of the library's files per album and in total, from the metadata cache.",
        discussion: """
            Sizes come from the metadata cache while files are unchanged, so a second run reads \
            no file: it only lists folders and compares sizes and modification times.

            Example:
              thumbs sizes ~/Pictures
            """)

    @OptionGroup var library: LibraryOptions

    func run() async throws {
        let photoLibrary = try await library.open().library
        let enumeration = try await library.albums(of: photoLibrary)
        let folders = enumeration.albums.folderAlbums
        let all = enumeration.albums.smartAlbums.filter {
            $0.kind == .smartAlbum(.allPhotos) || $0.kind == .smartAlbum(.videos)
        }
        let total = all.reduce(UInt64(0)) { $0 + $1.totalBytes }
        if library.json {
            return try library.printJSON(
                SizesSummary(
                    albums: folders.map {
                        SizesSummary.Album(album: $0.title, bytes: $0.totalBytes, assets: $0.count(of: .all))
                    },
                    totalBytes: total, filesFromCache: enumeration.fromCache, filesRead: enumeration.inspected))
        }
        var rows = folders.map {
            [$0.title, "\($0.count(of: .all))", "\($0.totalBytes)", ByteCount(Int64($0.totalBytes)).description]
        }
        rows.append([
            "total", "\(folders.reduce(0) { $0 + $1.count(of: .all) })", "\(total)",
            ByteCount(Int64(total)).description,
        ])
        print(TextTable.render(header: ["album", "assets", "bytes", "size"], rows: rows))
        print("\(enumeration.fromCache) files from the metadata cache, \(enumeration.inspected) read")
    }
}
