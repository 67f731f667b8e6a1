import CAvifShim
import Glibc
import ThumbsCore
import ThumbsRendering
import ThumbsSupport

/// An AVIF image sequence (an animated AVIF) opened with libavif: what its header says, and its
/// first frame, which its thumbnails show (as an animated GIF's or WebP's do).
///
/// libheif 1.15 reads the still pictures of HEIF files, not the tracks a sequence keeps its frames
/// in: libvips' HEIF loader then finds no picture. libavif reads the file from the descriptor,
/// whole, into memory (no path is opened), and decodes the first frame alone.
struct AVIFSequenceFile {
    let source: ImageSource
    /// A frame's size as stored (before its rotation).
    let storedSize: PixelSize
    /// The EXIF orientation (1...8) the sequence's rotation and mirroring amount to.
    let orientation: Int
    let hasAlpha: Bool
    let properties: ImageProperties
    private let pixelLimit: Int

    init(_ source: ImageSource, pixelLimit: Int) throws(ImagingError) {
        self.source = source
        self.pixelLimit = pixelLimit
        try DecodingLibrary.libavif.open()
        var info = thumbs_avif_info()
        var message = [CChar](repeating: 0, count: 256)
        let status = thumbs_avif_probe(source.descriptor, Int64(pixelLimit), &info, &message, message.count)
        guard status == THUMBS_AVIF_OK else {
            throw Self.error(status, message: String(cMessage: message), info, pixelLimit: pixelLimit)
        }
        storedSize = try PixelSize.decoded(width: info.width, height: info.height, pixelLimit: pixelLimit)
        orientation = (1...8).contains(Int(info.exif_orientation)) ? Int(info.exif_orientation) : 1
        hasAlpha = info.has_alpha != 0
        properties = ImageProperties(
            mediaType: .avif, pixelSize: orientation >= 5 ? storedSize.transposed : storedSize,
            pageCount: max(1, Int(info.frame_count)), fingerprint: source.fingerprint)
    }

    /// The first frame, as stored, for libvips to turn upright and resize.
    func firstFrame() throws(ImagingError) -> DecodedPicture {
        var info = thumbs_avif_info()
        var frame = thumbs_avif_frame()
        var message = [CChar](repeating: 0, count: 256)
        let status = thumbs_avif_first_frame(
            source.descriptor, Int64(pixelLimit), &info, &frame, &message, message.count)
        defer {
            free(frame.pixels)
            free(frame.icc)
        }
        guard status == THUMBS_AVIF_OK, let pixels = frame.pixels else {
            throw Self.error(status, message: String(cMessage: message), info, pixelLimit: pixelLimit)
        }
        let size = try PixelSize.decoded(width: frame.width, height: frame.height, pixelLimit: pixelLimit)
        let bands = Int(frame.bands)
        let icc = frame.icc.map { Array(UnsafeBufferPointer(start: $0, count: frame.icc_length)) }
        return DecodedPicture(
            content: .pixels(
                Array(UnsafeBufferPointer(start: pixels, count: size.pixelCount * bands)), size, bands: bands,
                profile: icc),
            orientation: orientation)
    }

    /// What the first frame's decode takes: libavif's YUV planes (up to 16-bit 4:4:4 with alpha),
    /// its RGB(A) conversion, this copy of it and libvips' image of it, beside the file itself.
    func decodeMemory(covering: PixelSize, renditionPixels: Int) -> Int {
        let frame = storedSize.pixelCount
        let bands = hasAlpha ? 4 : 3
        return Int(source.fingerprint.size) + frame * 8 + frame * bands * 3 + covering.pixelCount * bands * 2
            + renditionPixels * 4
    }

    static func error(
        _ status: thumbs_avif_status, message: String, _ info: thumbs_avif_info, pixelLimit: Int
    ) -> ImagingError {
        switch status {
        case THUMBS_AVIF_UNREADABLE: .unreadable(message)
        case THUMBS_AVIF_UNSUPPORTED: .unsupportedFormat("an animated AVIF libavif cannot read: \(message)")
        case THUMBS_AVIF_TRUNCATED: .truncated(message)
        case THUMBS_AVIF_TOO_LARGE: .tooManyPixels(width: Int(info.width), height: Int(info.height), limit: pixelLimit)
        case THUMBS_AVIF_NO_MEMORY: .unreadable("out of memory")
        default: .corrupt(message)
        }
    }
}
