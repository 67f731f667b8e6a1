import Foundation
import Hummingbird
import Logging
import NIOCore
import NIOFoundationEssentialsCompat
import Thumbs
import ThumbsCoreTestSupport
import ThumbsRendering
import ThumbsServer
import ThumbsTestSupport
import ThumbsSamples
import HTTPTypes

/// The library folder of a fixture: where tests add, change and remove photos while the server
/// runs.
struct LibraryFolder: Sendable {
    let path: String

    @discardableResult
    func write(_ bytes: [UInt8], to name: String) throws -> String {
        let target = URL(fileURLWithPath: path + "/" + name)
        try FileManager.default.createDirectory(
            at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: target)
        return target.path
    }

    @discardableResult
    func addPhoto(_ name: String, width: Int = 800, height: Int = 600) throws -> String {
        try write(try SyntheticImage(width: width, height: height).encoded(as: .jpeg), to: name)
    }

    /// A photo whose file carries an EXIF thumbnail, so opportunistic delivery has a stand-in.
    func addPhotoWithPreview(_ name: String) throws {
        try write(
            try ExifThumbnailJPEG.make(
                SyntheticImage(width: 1600, height: 1200), thumbnail: PixelSize(width: 160, height: 120),
                orientation: 1),
            to: name)
    }

    func remove(_ name: String) throws {
        try FileManager.default.removeItem(atPath: path + "/" + name)
    }
}

/// A library folder of generated photos, a store over it, and a server on a free loopback port.
struct ServerFixture {
    let folder = TemporaryFolder("thumbs-server-tests")
    let store: ThumbnailStore
    let library: PhotoLibrary
    var serve: ServeConfiguration
    var renditions = [
        Rendition(
            name: "grid", spec: RenditionSpec(size: PixelSize(width: 128, height: 128), contentMode: .aspectFill)),
        Rendition(
            name: "large", spec: RenditionSpec(size: PixelSize(width: 512, height: 512), contentMode: .aspectFit)),
        Rendition(
            name: "medium", spec: RenditionSpec(size: PixelSize(width: 256, height: 256), contentMode: .aspectFit)),
    ]

    var root: String { folder.path + "/library" }
    var photos: LibraryFolder { LibraryFolder(path: root) }

    /// `photos` generated JPEGs (photo-0.jpg …) and, with `broken`, a truncated one; the
    /// library renders with `renderer`.
    init(
        photos: Int = 5, broken: Bool = false,
        renderer: any ThumbnailRendering = ThumbnailRenderer(configuration: .init(workers: 2)),
        configure: (inout ServeConfiguration) -> Void = { _ in }
    ) throws {
        let photoFolder = LibraryFolder(path: folder.path + "/library")
        for index in 0..<photos {
            try photoFolder.addPhoto("photo-\(index).jpg", width: 640 + 16 * index, height: 480)
        }
        if broken {
            let bytes = try SyntheticImage(width: 800, height: 600).encoded(as: .jpeg)
            try photoFolder.write(Array(bytes.prefix(bytes.count / 2)), to: "broken.jpg")
            try FileAge.markBeingWritten(photoFolder.path + "/broken.jpg")  // fails as truncated
        }
        try FileManager.default.createDirectory(atPath: photoFolder.path, withIntermediateDirectories: true)
        store = try ThumbnailStore(configuration: StoreConfiguration(path: folder.path + "/cache"))
        library = PhotoLibrary(
            roots: [folder.path + "/library"], renderer: renderer, store: store)
        serve = ServeConfiguration()
        serve.listen = "127.0.0.1:0"
        serve.warmOnStart = false
        configure(&serve)
    }

    /// The server of the fixture, not listening yet.
    func server() async throws -> ThumbnailServer {
        var logger = Logger(label: "thumbs.serve.tests")
        logger.logLevel = .warning
        return try await ThumbnailServer(
            library: library, store: store, renditions: renditions, serve: serve, logger: logger)
    }

    /// Runs `body` against the server listening on a real socket, with a client of it and the
    /// port it listens on; the server stops when `body` returns or throws.
    func run<Value: Sendable>(
        _ body: @Sendable (_ client: ServerClient, _ port: Int) async throws -> Value
    ) async throws -> Value {
        let (addresses, listening) = AsyncStream.makeStream(of: String.self)
        let application = try await server().application { address in listening.yield(address) }
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                defer { listening.finish() }
                try await application.runService()
            }
            defer { group.cancelAll() }
            var iterator = addresses.makeAsyncIterator()
            guard let address = await iterator.next() else {
                try await group.next()  // the server's error, when it stopped before listening
                throw ServerStoppedBeforeListening()
            }
            guard let port = address.split(separator: ":").last.flatMap({ Int($0) }) else {
                throw ServerStoppedBeforeListening()
            }
            return try await body(ServerClient(port: port), port)
        }
    }
}

struct ServerStoppedBeforeListening: Error {}

extension ServerResponse {
    var text: String { String(buffer: body) }

    func json() throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(buffer: body)) as? [String: Any] ?? [:]
    }
}

extension ServerClient {
    /// Every asset of the listing, following the cursor `limit` at a time.
    func allAssets(limit: Int = 200, headers: HTTPFields = [:]) async throws -> [[String: Any]] {
        var assets: [[String: Any]] = []
        var cursor = ""
        repeat {
            let page = try await get("/api/assets?limit=\(limit)&cursor=\(cursor)", headers: headers).json()
            assets += page["assets"] as? [[String: Any]] ?? []
            cursor = page["nextCursor"] as? String ?? ""
        } while !cursor.isEmpty
        return assets
    }
}
