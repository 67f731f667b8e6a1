import ArgumentParser
import Foundation
import Thumbs

/// What the library commands share: the configuration, the roots, the store, the library.
struct LibraryOptions: ParsableArguments {
    @Argument(help: ArgumentHelp("Library folders (default: the roots of the configuration).", valueName: "ROOT"))
    var roots: [String] = []

    @Flag(help: "Print one JSON document instead of a table.")
    var json = false

    @OptionGroup var options: ConfigurationOptions

    /// Opens the metadata cache and the library, or ends the command with a clear line. With
    /// `requireRoots` false, roots that do not exist are left out instead.
    func open(requireRoots: Bool = true) throws -> (library: PhotoLibrary, store: ThumbnailStore) {
        let configuration = try loadOrExit(options)
        var folders = roots.isEmpty ? configuration.library.roots.map(configuration.resolve) : roots
        if !requireRoots { folders = folders.filter { FileManager.default.fileExists(atPath: $0) } }
        for folder in folders where !FileManager.default.fileExists(atPath: folder) {
            CommandFailure.usage("\(folder): no such folder (set library.roots in config.json, or name one)").exit()
        }
        let storeConfiguration = configuration.store(path: options.cache)
        CommandLog.logger.debug("cache: \(storeConfiguration.path), budget \(storeConfiguration.budget)")
        CommandLog.logger.debug("library roots: \(folders.joined(separator: ", "))")
        let store: ThumbnailStore
        do {
            store = try ThumbnailStore(configuration: storeConfiguration)
        } catch {
            CommandFailure.cache("cache \(storeConfiguration.path): \(error)").exit()
        }
        let renderer = ThumbnailRenderer(configuration: configuration.imaging)
        return (PhotoLibrary(roots: folders, includeHidden: configuration.library.includeHidden,
                             renderer: renderer, store: store), store)
    }

    func printJSON<T: Encodable>(_ value: T) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        print(String(decoding: try encoder.encode(value), as: UTF8.self))
    }

    /// Enumerates the library into albums, counting what came from the metadata cache; issues
    /// are reported on the way.
    func albums(of library: PhotoLibrary) async throws -> (builder: AlbumBuilder, fromCache: Int, read: Int) {
        var builder = AlbumBuilder()
        var fromCache = 0, read = 0
        var issues: [LibraryIssue] = []
        for try await batch in library.assets() {
            builder.add(batch)
            fromCache += batch.fromCache
            read += batch.inspected
            issues += batch.issues
        }
        report(issues)
        return (builder, fromCache, read)
    }

    /// Issues go to stderr, one line each, so the table or JSON on stdout stays clean.
    func report(_ issues: [LibraryIssue]) {
        guard !CommandLog.isQuiet else { return }
        for issue in issues { FileHandle.standardError.write(Data("thumbs: \(issue)\n".utf8)) }
    }
}

struct AlbumsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "albums",
        abstract: "List the folder albums and smart albums, with counts and key assets.",
        discussion: """
            Example:
              thumbs albums ~/Pictures
            """)

    @OptionGroup var library: LibraryOptions

    func run() async throws {
        let (photoLibrary, _) = try library.open()
        let builder = try await library.albums(of: photoLibrary).builder
        let albums = builder.smartAlbums + builder.folderAlbums
        if library.json { return try library.printJSON(albums.map(AlbumSummary.init)) }
        print(TextTable.render(
            header: ["album", "photos", "videos", "estimated", "key assets"],
            rows: albums.map { album in
                [album.title, "\(album.photoCount)", "\(album.videoCount)",
                 album.kind.isFolder ? "\(album.estimatedCount)" : "-",
                 album.keyAssets.map(\.relativePath).joined(separator: ", ")]
            }))
    }
}

struct MomentsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "moments",
        abstract: "List the library by day, newest first, with counts.",
        discussion: """
            Days are the local calendar day each photo was taken (EXIF DateTimeOriginal as the \
            camera wrote it), else the day its file was last modified.

            Example:
              thumbs moments ~/Pictures
            """)

    @OptionGroup var library: LibraryOptions

    func run() async throws {
        let (photoLibrary, _) = try library.open()
        var latest = Moments()
        for try await snapshot in photoLibrary.moments() { latest = snapshot }
        let days = latest.sections.map { moment in
            DaySummary(day: moment.day.description, photos: moment.items.filter { !$0.isVideo }.count,
                       videos: moment.items.filter(\.isVideo).count)
        }
        if library.json { return try library.printJSON(days) }
        print(TextTable.render(header: ["day", "photos", "videos"],
                               rows: days.map { [$0.day, "\($0.photos)", "\($0.videos)"] }))
        print("\(latest.assetCount) assets on \(days.count) days")
    }
}

struct SizesCommand: AsyncParsableCommand {
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
        let (photoLibrary, _) = try library.open()
        let (builder, fromCache, inspected) = try await library.albums(of: photoLibrary)
        let folders = builder.folderAlbums
        let all = builder.smartAlbums.filter { $0.kind == .smartAlbum(.allPhotos) || $0.kind == .smartAlbum(.videos) }
        let total = all.reduce(UInt64(0)) { $0 + $1.totalBytes }
        if library.json {
            return try library.printJSON(SizesSummary(
                albums: folders.map { SizesSummary.Album(album: $0.title, bytes: $0.totalBytes, assets: $0.count(of: .all)) },
                totalBytes: total, filesFromCache: fromCache, filesRead: inspected))
        }
        var rows = folders.map { [$0.title, "\($0.count(of: .all))", "\($0.totalBytes)", ByteCount(Int64($0.totalBytes)).description] }
        rows.append(["total", "\(folders.reduce(0) { $0 + $1.count(of: .all) })", "\(total)", ByteCount(Int64(total)).description])
        print(TextTable.render(header: ["album", "assets", "bytes", "size"], rows: rows))
        print("\(fromCache) files from the metadata cache, \(inspected) read")
    }
}

extension AssetCollection.Kind {
    var isFolder: Bool {
        if case .folder = self { return true }
        return false
    }
}

struct AlbumSummary: Encodable {
    let title: String
    let kind: String
    let estimatedCount: Int?
    let photos: Int
    let videos: Int
    let bytes: UInt64
    let keyAssets: [String]

    init(_ album: AssetCollection) {
        title = album.title
        kind = album.kind.isFolder ? "folder" : "smart"
        estimatedCount = album.kind.isFolder ? album.estimatedCount : nil
        photos = album.photoCount
        videos = album.videoCount
        bytes = album.totalBytes
        keyAssets = album.keyAssets.map(\.relativePath)
    }
}

struct DaySummary: Encodable {
    let day: String
    let photos: Int
    let videos: Int
}

struct SizesSummary: Encodable {
    struct Album: Encodable {
        let album: String
        let bytes: UInt64
        let assets: Int
    }

    let albums: [Album]
    let totalBytes: UInt64
    let filesFromCache: Int
    let filesRead: Int
}

/// Left-aligned columns for terminal tables.
enum TextTable {
    static func render(header: [String], rows: [[String]]) -> String {
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        return all.map { row in
            row.enumerated().map { index, cell in
                index == row.count - 1 ? cell : cell.padding(toLength: widths[index], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }
}
