import ThumbsCore
import ThumbsRendering

/// JPEG XL, as a bare codestream or in its container: libvips' `jxlload`, from its module
/// (``JpegXLRuntime``), which libjxl decodes the whole frame for.
struct JPEGXLHandler: StillImageHandler {
    let name = "JPEG XL"
    let mediaTypes: Set<MediaType> = [.jpegXL]
    let libraries: Set<DecodingLibrary> = [.libvips, .libjxl]

    func decoding(with loaded: DecoderLibraries) -> String {
        loaded.jpegXLLoader == "none"
            ? "none (libvips' module vips-jxl.so cannot be loaded)"
            : "libvips' \(loaded.jpegXLLoader), from its module vips-jxl.so (libjxl)"
    }

    func prepare() throws(ImagingError) {
        try JpegXLRuntime.ensureStarted()
    }

    /// libjxl's whole frame in libvips' image: a 4082 x 2722 one measured 6 bytes a pixel with
    /// libjxl's own buffers, counted as 6 more than libvips' image.
    func decoderMemory(of file: ImageFile, decodeSize: PixelSize) -> Int {
        file.storedSize.pixelCount * (file.bands * file.sampleBytes + 6) + file.streamedLineMemory(lines: 1152)
    }
}
