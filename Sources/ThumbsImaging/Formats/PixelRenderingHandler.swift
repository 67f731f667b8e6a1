import ThumbsCore
import ThumbsRendering

/// A still format whose handler renders what it can without libvips, as ``PixelPicture``s
/// (``VipsRenderer/pixelRenditions(of:upright:bands:specs:decoderMemory:picture:)``), and
/// leaves the rest to the engine.
protocol PixelRenderingHandler: StillImageHandler {
    /// `specs` of `source` made without libvips; nil for the engine to make.
    func renderedWithoutLibvips(_ source: ImageSource, specs: [RenditionSpec], engine: VipsRenderer) -> [Thumbnail]?
}

extension PixelRenderingHandler {
    func render(
        _ source: ImageSource, specs: [RenditionSpec], engine: VipsRenderer
    ) throws(ImagingError) -> [Thumbnail] {
        if let thumbnails = renderedWithoutLibvips(source, specs: specs, engine: engine) { return thumbnails }
        return try engine.render(source, as: self, specs: specs)
    }
}
