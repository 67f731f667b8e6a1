// What an app imports: every layer's public API with one `import Thumbs`, the decoded
// config.json (`ThumbsConfiguration`, ThumbsSettings) that ties the layers' settings together,
// and the factory (`LibraryFactory`) that opens a library with the renderer it names: where
// imaging and isolation are plugged in beneath the renderer seam.

@_exported import ThumbsCore
@_exported import ThumbsImaging
@_exported import ThumbsIsolation
@_exported import ThumbsLibrary
@_exported import ThumbsPipeline
@_exported import ThumbsRendering
@_exported import ThumbsSettings
@_exported import ThumbsStore
@_exported import ThumbsSupport
