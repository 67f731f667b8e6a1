import ThumbsCore
import ThumbsRendering

/// GIF: libvips' `gifload` (libnsgif), its first frame; libnsgif decodes the whole frame (RGBA,
/// and its colour indexes), which goes through more of libvips' line caches than other loaders'.
struct GIFHandler: StillImageHandler {
    let name = "GIF"
    let mediaTypes: Set<MediaType> = [.gif]
    let libraries: Set<DecodingLibrary> = [.libvips]

    func decoding(with loaded: DecoderLibraries) -> String {
        "libvips' gifload (libnsgif), its first frame"
    }

    func decoderMemory(of file: ImageFile, decodeSize: PixelSize) -> Int {
        file.storedSize.pixelCount * 5 + file.streamedLineMemory(lines: 3072)
    }
}
