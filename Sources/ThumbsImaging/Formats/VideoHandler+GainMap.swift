import ThumbsCore
import ThumbsRendering

/// What a PQ or HLG video gives its renditions' gain maps: the light of its poster frame
/// (``VideoFile/posterLight(covering:)``), the frame the renditions show, scaled as a poster
/// covering the gain map's size would be. An SDR video gives none, and neither does one whose
/// frame's light fails to decode (a time limit passed on this second decode of it): its
/// renditions are still the poster.
extension VideoHandler {
    func gainMapSource(
        _ source: ImageSource, size: PixelSize, fill: Bool, engine: VipsRenderer
    ) throws(ImagingError) -> GainMapSource? {
        let file = try VideoFile(source, pixelLimit: engine.pixelLimit, timeLimit: engine.decodeTimeLimit)
        guard file.mayBeHDR else { return nil }
        // The decode as for a poster covering `size`, with the light's floats three times over
        // (CVideoShim's, the copy, the upright copy) as the renditions' pixels. Covering both
        // sides of `size` is what a filled rendition's centred crop needs; a fitted one has the
        // frame's shape, so that is no more.
        let memory = file.decodeMemory(covering: size, renditionPixels: 3 * size.pixelCount)
        return try engine.memory.withReservation(memory) { () throws(ImagingError) -> GainMapSource? in
            let light: GainPlane?
            do throws(ImagingError) {
                light = try file.posterLight(covering: size)
            } catch {
                light = nil
            }
            try file.ensureUnchanged()
            return light.map { .light($0) }
        }
    }
}
