import ThumbsCore
import ThumbsRendering

/// Renditions made from ``PixelPicture``s, for a handler that renders without libvips
/// (`JPEGHandler+Direct.swift`, `HEIFHandler+Direct.swift`): the engine's choice of decodes and
/// its memory reservation, the handler's decode.
extension VipsRenderer {
    /// `specs` of `source`, a picture of `upright` size and `bands` bands, made from what
    /// `picture` decodes for a size (upright, turned and in sRGB; covering the size when its
    /// flag says fill): one spec from a decode of its own size, several from one decode of the
    /// size they share, as ``renderRenditions(of:specs:decodeSize:outputs:partial:)`` makes them.
    /// It reserves what the engine would under the same budget, `decoderMemory` of the decode
    /// size besides the decoded picture and the renditions. Nil where `picture` declines or
    /// anything fails: the engine then meets the file again, and reports it in its words.
    func pixelRenditions(
        of source: ImageSource, upright: PixelSize, bands: Int, specs: [RenditionSpec],
        decoderMemory: (PixelSize) -> Int,
        picture: (_ size: PixelSize, _ fill: Bool) throws(ImagingError) -> PixelPicture?
    ) -> [Thumbnail]? {
        let decodeSize = RenditionGeometry.sharedDecodeSize(source: upright, specs: specs)
        guard !specs.isEmpty, specs.count == 1 || decodeSize.pixelCount <= pixelLimit else { return nil }
        let outputs = specs.map { RenditionGeometry.outputSize(source: upright, spec: $0) }
        let needed =
            decoderMemory(decodeSize) + decodeSize.pixelCount * bands * 2 + outputs.reduce(0) { $0 + $1.pixelCount } * 4
        return try? memory.withReservation(needed) { () throws(ImagingError) -> [Thumbnail]? in
            let thumbnails: [Thumbnail]
            if specs.count == 1 {
                let spec = specs[0]
                guard let made = try picture(outputs[0], spec.contentMode == .aspectFill) else { return nil }
                thumbnails = [try made.encoded(for: spec, placeholder: true)]
            } else {
                guard let base = try picture(decodeSize, false) else { return nil }
                thumbnails = try Self.renditions(
                    from: base, upright: upright, specs: specs, outputs: outputs, ImagingError.corrupt)
            }
            try source.ensureUnchanged()
            return thumbnails
        }
    }
}
