import ThumbsLibrary
import ThumbsRendering
import ThumbsStore

/// What a `LibraryFactory` (Thumbs) opens: the store, and the library whose renderer the
/// configuration's isolation asks for, its metadata kept in that store.
public struct OpenedLibrary: Sendable {
    /// The configuration they were opened from.
    public let configuration: ThumbsConfiguration
    /// The thumbnail cache, also the library's metadata cache.
    public let store: ThumbnailStore
    public let library: PhotoLibrary

    package init(configuration: ThumbsConfiguration, store: ThumbnailStore, library: PhotoLibrary) {
        self.configuration = configuration
        self.store = store
        self.library = library
    }

    /// The renderer the library reads headers with, to render with too.
    public var renderer: any ThumbnailRendering { library.renderer }
}
