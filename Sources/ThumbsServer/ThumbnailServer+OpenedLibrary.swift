import Logging
import ThumbsSettings

extension ThumbnailServer {
    /// Serves a library a `LibraryFactory` (Thumbs) opened, with its configuration's renditions
    /// and manager settings, and `serve` (else the configuration's `serve` section).
    ///
    /// ```swift
    /// let opened = try await LibraryFactory(configuration: configuration).open()
    /// let server = try await ThumbnailServer(opened)
    /// try await server.run()
    /// ```
    public init(
        _ opened: OpenedLibrary, serve: ServeConfiguration? = nil, logger: Logger = Logger(label: "thumbs.serve")
    ) async throws {
        try await self.init(
            library: opened.library, store: opened.store, renditions: opened.configuration.renditions,
            serve: serve ?? opened.configuration.serve, pipeline: opened.configuration.pipeline, logger: logger)
    }
}
