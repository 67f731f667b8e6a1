import ThumbsCore
import ThumbsRendering

/// TIFF: libvips' `tiffload` (libtiff), its first page, streamed through libvips' shrink. A
/// camera RAW file is TIFF inside too, but is ``CameraRawHandler``'s.
struct TIFFHandler: StillImageHandler {
    let name = "TIFF"
    let mediaTypes: Set<MediaType> = [.tiff]
    let libraries: Set<DecodingLibrary> = [.libvips]

    func decoding(with loaded: DecoderLibraries) -> String {
        "libvips' tiffload (libtiff), its first page"
    }
}
