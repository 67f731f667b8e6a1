import CVips
import CVipsShim
import Foundation
import ThumbsCore
import ThumbsRendering
import ThumbsSupport

/// An image file opened for decoding: its source checks passed, its header read by libvips and
/// checked against the pixel limit. Nothing is decoded yet.
struct ImageFile {
    let source: ImageSource
    /// The handler of its format, which decodes it.
    let handler: any StillImageHandler
    /// The header as libvips reads it (pixels are decoded lazily, on first use).
    let header: VipsImageHandle
    /// The size of the page decoded, as stored (before orientation).
    let storedSize: PixelSize
    /// The size as displayed, after the orientation libvips applies.
    let uprightSize: PixelSize

    var mediaType: MediaType { source.mediaType }
    var fingerprint: FileFingerprint { source.fingerprint }
    /// The open file every load reads from.
    var descriptor: Int32 { source.descriptor }

    /// Reads the header of `source`, refusing images over `pixelLimit`; with `partial`, past
    /// damage its loader would otherwise refuse (``VipsRenderer/openedForRender(_:as:)``).
    init(
        _ source: ImageSource, handler: some StillImageHandler, pixelLimit: Int, partial: Bool = false
    ) throws(ImagingError) {
        try VipsRuntime.ensureStarted()
        try handler.prepare()
        self.handler = handler
        self.source = source
        guard let opened = thumbs_vips_open_descriptor(source.descriptor, partial ? 1 : 0) else {
            throw Self.decodeError(VipsError.takeMessage(), source: source, handler: handler)
        }
        // Loaders leave notes in libvips' error buffer even when they succeed (HEIF: "bad seek"
        // past the end); clear them so a later failure's message is its own.
        vips_error_clear()
        header = VipsImageHandle(opened)
        // For multi-page images the header height can be the whole strip; one page is decoded.
        let pageHeight = Int(vips_image_get_page_height(header.pointer))
        let stored = PixelSize(width: header.width, height: pageHeight > 0 ? pageHeight : header.height)
        try stored.ensureWithin(pixelLimit: pixelLimit)
        storedSize = stored
        uprightSize = header.orientation >= 5 ? stored.transposed : stored
    }

    /// ``init(_:handler:pixelLimit:partial:)`` with the handler ``FormatRegistry/standard`` picks.
    init(_ source: ImageSource, pixelLimit: Int) throws(ImagingError) {
        guard let handler = try FormatRegistry.standard.handler(for: source) as? any StillImageHandler else {
            throw .unsupportedFormat("\(source.mediaType.rawValue): its header is not libvips' to read")
        }
        try self.init(source, handler: handler, pixelLimit: pixelLimit)
    }

    /// The memory decoding this file to `decodeSize` takes, with `renditionPixels` more pixels
    /// kept for the renditions made from it, estimated from the header: what the handler's
    /// decoder holds (``StillImageHandler/decoderMemory(of:decodeSize:)``), the decoded image
    /// counted twice (the decode and its sRGB conversion), two and a half times with alpha
    /// (premultiplied around the resize: 1000 x 50000 and 1000 x 100000 RGBA PNGs, whose decoded
    /// images are large beside their lines, measured 42 and 65 MiB), and 8-bit output pixels
    /// once per rendition.
    func decodeMemory(to decodeSize: PixelSize, renditionPixels: Int) -> Int {
        let decoded = decodeSize.pixelCount * bands * sampleBytes * (header.hasAlpha ? 5 : 4) / 2
        return handler.decoderMemory(of: self, decodeSize: decodeSize) + decoded + renditionPixels * 4
    }

    /// Bytes of one sample as stored: 1, or 2 for 16-bit (and wider) formats.
    var sampleBytes: Int {
        header.bandFormat == VIPS_FORMAT_UCHAR || header.bandFormat == VIPS_FORMAT_CHAR ? 1 : 2
    }

    var bands: Int { max(1, header.bands) }

    /// Whether the file is interlaced (a progressive JPEG, an Adam7 PNG).
    var isInterlaced: Bool { header.int("interlaced") == 1 }

    /// What libvips' shrink of a file its loaders read holds, keeping `lines` samples of each
    /// stored line's width (``StillImageHandler/decoderMemory(of:decodeSize:)``).
    ///
    /// Its line caches keep whole lines, however little of each line the thumbnail needs: the
    /// sequential read's cache and those of the vertical shrink hold more than a thousand lines
    /// of the picture as loaded, and a picture with alpha is premultiplied into 4-byte floats
    /// first. So the memory grows with the width, not the pixel count: a 100000 x 1000 RGBA PNG
    /// took 838 MiB beyond the process's own, a 1000 x 100000 one 60 MiB. The counts are the
    /// measured ones (docs/ARCHITECTURE.md) with a margin.
    func streamedLineMemory(lines: Int) -> Int {
        storedSize.width * bands * (lines * sampleBytes + (header.hasAlpha ? 1280 : 0))
    }

    /// Fails with ``/ThumbsCore/ImagingError/changedWhileRendering`` if the file is not the version opened.
    func ensureUnchanged() throws(ImagingError) {
        try source.ensureUnchanged()
    }
}

extension ImageFile {
    private static let truncationPhrases = [
        "premature end of input file", "not enough data", "unexpected end of file", "truncated",
        "end of stream",
    ]
    /// Failures of the machine, not of the file: the memo must not keep them.
    private static let systemPhrases = [
        "out of memory", "input/output error", "too many open files", "no space left",
        "permission denied", "no such file", "unable to open", "stale file handle",
    ]
    private static let unsupportedPhrases = ["not supported", "unsupported", "not a known file format"]
    private static let corruptionPhrases = ["corrupt", "bogus", "crc error", "invalid", "bad huffman"]

    /// Turns a libvips failure while decoding this file into a typed error.
    func decodeError(_ message: String) -> ImagingError {
        Self.decodeError(message, source: source, handler: handler)
    }

    /// libvips' words decide when they are clear (run alone, see ``VipsCallGate``, they describe
    /// this file); otherwise a file whose end marker is missing
    /// (``StillImageHandler/lacksEndMarker(_:)``: a JPEG without EOI, a PNG without IEND) is
    /// truncated, and anything else is corrupt.
    static func decodeError(_ text: String, source: ImageSource, handler: some StillImageHandler) -> ImagingError {
        decodeError(text, mediaType: source.mediaType) { handler.lacksEndMarker(in: source) }
    }

    /// libvips reads from a descriptor, so its messages name no file (reports name it already)
    /// and folder names cannot sway the classification.
    static func decodeError(
        _ message: String, mediaType: MediaType, isMissingEndMarker: () -> Bool
    ) -> ImagingError {
        let lowered = message.lowercased()
        if systemPhrases.contains(where: lowered.contains) { return .unreadable(message) }
        if truncationPhrases.contains(where: lowered.contains) { return .truncated(message) }
        if unsupportedPhrases.contains(where: lowered.contains) {
            return .unsupportedFormat("a \(mediaType.rawValue) variant libvips cannot read: \(message)")
        }
        if corruptionPhrases.contains(where: lowered.contains) { return .corrupt(message) }
        return isMissingEndMarker() ? .truncated(message) : .corrupt(message)
    }
}
