import Testing
import ThumbsCore
@testable import ThumbsImaging
import ThumbsRendering

/// A handler's renders and probes without libvips beside the engine's, for the tests of the
/// formats that render without libvips (``PixelRenderingHandler``).
struct DirectPathComparison<Handler: PixelRenderingHandler> {
    let handler: Handler
    let engine = VipsRenderer()

    /// Both paths' thumbnails of the file at `path`, or nil when the direct path declines it.
    func bothPaths(_ path: String, specs: [RenditionSpec]) throws -> (direct: [Thumbnail], engine: [Thumbnail])? {
        let source = try ImageSource(ImageLocation(path: path))
        guard let direct = handler.renderedWithoutLibvips(source, specs: specs, engine: engine) else { return nil }
        return (direct, try engine.render(source, as: handler, specs: specs))
    }

    /// Expects the direct path to take the file at `path` and give the engine's thumbnails, byte
    /// for byte, placeholders included.
    func expectSame(_ path: String, specs: [RenditionSpec], _ comment: Comment? = nil) throws {
        let rendered = try #require(try bothPaths(path, specs: specs), "the direct path declined \(path)")
        for (direct, engine) in zip(rendered.direct, rendered.engine) {
            #expect(direct.bytes == engine.bytes, comment)
            #expect(direct.pixelSize == engine.pixelSize && direct.format == engine.format, comment)
            #expect(direct.placeholder == engine.placeholder, comment)
        }
    }

    /// The header read by the handler, and libvips' header, as properties.
    func bothProbes(_ path: String) throws -> (direct: ImageProperties, engine: ImageProperties) {
        let source = try ImageSource(ImageLocation(path: path))
        return (try handler.probe(source, engine: engine), try engine.probe(source, as: handler))
    }
}
