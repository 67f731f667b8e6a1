import ThumbsCore
import ThumbsRendering

/// Camera RAW files (CR2, CR3, NEF, ARW, DNG, RAF…): LibRaw reads them (``RawFile``), from the
/// largest embedded preview that covers the thumbnail, else a half-size decode that skips
/// demosaicing; the smallest preview is the embedded one. libvips' own LibRaw loader
/// (`dcrawload`, libvips 8.18 and later) demosaics the whole sensor and exposes no preview, so
/// it is never handed a RAW file.
struct CameraRawHandler: MediaHandler {
    let name = "camera RAW"
    let libraries: Set<DecodingLibrary> = [.libvips, .libRaw]

    func reads(_ source: ImageSource) -> Bool { source.mediaType == .cameraRaw }

    func decoding(with loaded: DecoderLibraries) -> String {
        let vipsLoader =
            loaded.libvipsReadsRaw
            ? "libvips' dcrawload is present and left unused: it demosaics every file in full"
            : "libvips has no LibRaw loader"
        return "LibRaw \(loaded.libRaw), embedded preview else half-size decode (\(vipsLoader))"
    }

    func open(_ source: ImageSource, pixelLimit: Int, timeLimit: Duration) throws(ImagingError) -> any PictureFile {
        try RawFile(source, pixelLimit: pixelLimit, timeLimit: timeLimit)
    }
}
