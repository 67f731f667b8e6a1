// What an app imports: every layer's public API with one `import Thumbs`, plus the decoded
// config.json (`ThumbsConfiguration`) that ties the layers' settings together.

@_exported import ThumbsCore
@_exported import ThumbsImaging
@_exported import ThumbsRendering
@_exported import ThumbsIsolation
@_exported import ThumbsLibrary
@_exported import ThumbsPipeline
@_exported import ThumbsStore
@_exported import ThumbsSupport
