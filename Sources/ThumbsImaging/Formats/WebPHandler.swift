import ThumbsCore
import ThumbsRendering

/// WebP: libvips' `webpload`; libwebp decodes the whole picture into RGBA.
struct WebPHandler: StillImageHandler {
    let name = "WebP"
    let mediaTypes: Set<MediaType> = [.webp]
    let libraries: Set<DecodingLibrary> = [.libvips]

    func decoding(with loaded: DecoderLibraries) -> String {
        "libvips' webpload (libwebp), its first frame"
    }

    func decoderMemory(of file: ImageFile, decodeSize: PixelSize) -> Int {
        file.storedSize.pixelCount * 4 + file.streamedLineMemory(lines: 1152)
    }
}
