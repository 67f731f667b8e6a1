import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import ThumbsCore
import ThumbsLibrary
import ThumbsPipeline
import ThumbsSettings
import ThumbsStore
import UnixSignals

/// The cache, the library and the grid page over HTTP (`thumbs serve`): one process holding one
/// ``/ThumbsPipeline/CachingImageManager`` that answers every client, renders misses on demand
/// (coalesced, bounded), and keeps itself current by watching the library. See docs/HTTP.md.
///
/// ```swift
/// let server = try await ThumbnailServer(
///     library: library, store: store, renditions: configuration.renditions,
///     serve: configuration.serve)
/// try await server.run { address in print("listening on http://\(address)") }
/// ```
public struct ThumbnailServer: Sendable {
    public let configuration: ServeConfiguration
    let service: ThumbnailService
    let watch: LibraryWatchService
    let readyAnswers: ReadyAnswersByLoop
    let manager: CachingImageManager

    /// Opens the library's catalog in the store, walking the library into it first when no
    /// walk of every root was kept there (in this time zone); nothing listens until
    /// ``run(onListening:)``, which also starts watching the library.
    public init(
        library: PhotoLibrary, store: ThumbnailStore, renditions: [Rendition], serve configuration: ServeConfiguration,
        pipeline: PipelineConfiguration = .init(), logger: Logger = Logger(label: "thumbs.serve")
    ) async throws {
        let catalog = LibraryCatalog(store: store)
        if try catalog.walkedWhole(roots: library.roots) == nil {
            // Listed, not warmed: the warm at start comes after the server answers.
            _ = try await WarmJob(store: store, renderer: library.renderer, renditions: [])
                .run(forgettingGoneFrom: library)
        }
        let index = LibraryIndex(
            catalog: catalog, roots: library.roots, momentsReadAhead: configuration.defaultPageSize)
        let manager = CachingImageManager(renderer: library.renderer, store: store, configuration: pipeline)
        self.manager = manager
        self.configuration = configuration
        // A quarter of the memory tier per event loop: the answers in use, not a second cache.
        readyAnswers = ReadyAnswersByLoop(byteLimitPerLoop: Int(pipeline.memoryCostLimit.bytes) / 4)
        service = ThumbnailService(
            index: index, manager: manager, store: store, renditions: renditions, roots: library.roots,
            configuration: configuration, logger: logger)
        watch = LibraryWatchService(
            library: library, index: index,
            warming: WarmJob(
                store: store, renderer: library.renderer, renditions: renditions.map(\.spec),
                catalogChanges: { index.note($0) }),
            warmsAtStart: configuration.warmOnStart, logger: logger)
    }

    /// Serves until the calling task is cancelled (or SIGTERM). `onListening` hears the address
    /// bound, with the port the system chose when the configuration asks for port 0.
    public func run(onListening: @escaping @Sendable (String) async -> Void = { _ in }) async throws {
        // Renders are answered before they are stored: what was answered is stored before the
        // server is done, however it stops.
        do {
            try await application(onListening: onListening).runService(gracefulShutdownSignals: [.sigterm])
        } catch {
            await manager.persisted()
            throw error
        }
        await manager.persisted()
    }

    /// The Hummingbird application: the routes, the limits, and the watch as a service beside.
    package func application(
        onListening: @escaping @Sendable (String) async -> Void = { _ in }
    ) -> Application<RouterResponder<ServerRequestContext>> {
        let address = configuration.address
        let handlers = ThumbnailHTTP1Channel.Configuration(
            headTimeout: .nanoseconds(Int64(configuration.requestHeadTimeout * 1e9)),
            idleTimeout: .nanoseconds(Int64(configuration.idleTimeout * 1e9)),
            body: .init(
                timeout: .nanoseconds(Int64(configuration.requestBodyTimeout * 1e9)),
                minimumRate: configuration.minRequestBodyRate),
            maxHeaderBytes: configuration.maxHeaderBytes, memoryHits: MemoryHits(service: service),
            serverName: Self.serverName, readyAnswers: readyAnswers)
        return Application(
            router: service.router(),
            server: HTTPServerBuilder { responder in
                ThumbnailHTTP1Channel(responder: responder, configuration: handlers)
            },
            configuration: .init(
                address: .hostname(address.host, port: address.port), serverName: Self.serverName,
                availableConnectionsDelegate: MaximumAvailableConnections(configuration.maxConnections)),
            services: [watch],
            onServerRunning: { channel in
                await onListening(channel.localAddress.map(Self.describe) ?? address.description)
            },
            logger: service.logger)
    }

    /// The `Server` field of every response.
    static let serverName = "thumbs"

    private static func describe(_ address: SocketAddress) -> String {
        let host = address.ipAddress ?? "?"
        let port = address.port ?? 0
        return host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
}

extension ThumbnailService {
    /// `GET /`: the page; with `?token=`, the token is kept in a cookie (so that a plain `<img>`
    /// carries it) and the browser is sent back to `/` so the token leaves the address bar.
    func page(_ request: Request) throws -> Response {
        if let offered = request.uri.queryParameters["token"] {
            guard let token = configuration.token, ServerMiddleware.constantTimeEqual(offered.utf8, token.utf8) else {
                throw APIError.unauthorized
            }
            return Response(
                status: .seeOther,
                headers: [
                    .location: "/",
                    .setCookie: "\(ServerMiddleware.tokenCookie)=\(token); Path=/; HttpOnly; SameSite=Strict",
                ])
        }
        return EmbeddedPage.response(for: "/")!
    }

    func metricsResponse() -> Response {
        let text = metrics.exposition(
            rendersInFlight: manager.rendersInFlight, pending: admission.count, preheating: preheats.count)
        return Response(
            status: .ok,
            headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(bytes: text)))
    }
}
