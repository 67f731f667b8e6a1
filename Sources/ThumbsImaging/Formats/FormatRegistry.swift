import ThumbsCore
import ThumbsRendering

/// The format handlers, asked in order: the first that reads a file handles it.
///
/// ```swift
/// let handler = try FormatRegistry.standard.handler(for: source)
/// let properties = try handler.probe(source, engine: VipsRenderer())
/// ```
package struct FormatRegistry: Sendable {
    package let handlers: [any FormatHandler]

    package init(handlers: [any FormatHandler]) {
        self.handlers = handlers
    }

    /// Every format Thumbs renders. An AVIF image sequence comes before AVIF stills, which it
    /// would otherwise be taken for.
    package static let standard = FormatRegistry(handlers: [
        JPEGHandler(),
        AVIFSequenceHandler(),
        HEIFHandler(),
        PNGHandler(),
        WebPHandler(),
        GIFHandler(),
        TIFFHandler(),
        JPEGXLHandler(),
        CameraRawHandler(),
        VideoHandler(),
    ])

    /// The handler of `source`; a file no handler reads is an unsupported format.
    package func handler(for source: ImageSource) throws(ImagingError) -> any FormatHandler {
        guard let handler = handlers.first(where: { $0.reads(source) }) else {
            throw .unsupportedFormat("\(source.mediaType.rawValue): no handler reads it")
        }
        return handler
    }

    /// The libraries `source` is decoded with: its handler's for it, or libvips alone when it
    /// was not sniffed or no handler reads it (libvips is what reports it unsupported).
    package func libraries(for source: ImageSource?) -> Set<DecodingLibrary> {
        libraries(for: source, specs: [])
    }

    /// The libraries renditions `specs` of `source` may need: the file's, and libvips, which
    /// alone encodes WebP and enlarges a picture, whatever decoded it.
    package func libraries(for source: ImageSource?, specs: [RenditionSpec]) -> Set<DecodingLibrary> {
        let encoding: Set<DecodingLibrary> =
            specs.contains { $0.format == .webp || $0.allowsUpscaling } ? [.libvips] : []
        let decoding =
            source.flatMap { source in (try? handler(for: source))?.libraries(for: source) } ?? [.libvips]
        return decoding.union(encoding)
    }
}
