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
    /// damage its loader would otherwise refuse (``VipsRenderer/openedForRender(_:)``).
    init(_ source: ImageSource, pixelLimit: Int, partial: Bool = false) throws(ImagingError) {
        try VipsRuntime.ensureStarted()
        if source.mediaType == .heif || source.mediaType == .avif { try HeifRuntime.ensureStarted() }
        if source.mediaType == .jpegXL { try JpegXLRuntime.ensureStarted() }
        self.source = source
        guard let opened = thumbs_vips_open_descriptor(source.descriptor, partial ? 1 : 0) else {
            throw Self.decodeError(VipsError.takeMessage(), source: source)
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

    /// The memory decoding this file to `decodeSize` takes, with `renditionPixels` more pixels
    /// kept for the renditions made from it, estimated from the header.
    ///
    /// What the decoder holds besides its output: a JPEG is decoded whole at its DCT scale
    /// (``JpegDecoder``), up to four times the pixels of `decodeSize`, and a progressive one
    /// keeps every DCT coefficient of the whole image besides (2 bytes per sample of each
    /// component, at full size whatever the scaling); libheif decodes the whole picture (and
    /// converts it once more to RGB), an interlaced PNG is read whole, libwebp decodes the whole
    /// picture into RGBA and libnsgif the whole frame (RGBA, and its colour indexes), libjxl the
    /// whole frame into libvips' image (a 4082 x 2722 one measured 6 bytes a pixel with its own
    /// buffers, counted as 6 more than libvips' image). Whatever
    /// libvips' loaders read also streams through libvips' shrink, whose line caches hold whole
    /// lines of the stored image (``streamedLineBytes``). The decoded image is counted twice (the
    /// decode and its sRGB conversion), two and a half times with alpha (premultiplied around the
    /// resize: 1000 x 50000 and 1000 x 100000 RGBA PNGs, whose decoded images are large beside
    /// their lines, measured 42 and 65 MiB), 8-bit output pixels once per rendition.
    func decodeMemory(to decodeSize: PixelSize, renditionPixels: Int) -> Int {
        let stored = storedSize.pixelCount
        let sampleBytes = header.bandFormat == VIPS_FORMAT_UCHAR || header.bandFormat == VIPS_FORMAT_CHAR ? 1 : 2
        let bands = max(1, header.bands)
        let interlaced = header.int("interlaced") == 1
        var decoder = 0
        if mediaType == .jpeg {
            let scale = Int(VipsRenderer.decodeShrink(uprightSize, to: decodeSize, cover: true))
            decoder = storedSize.width / scale * (storedSize.height / scale) * bands
        }
        switch mediaType {
        case .jpeg where interlaced:
            // Chroma subsampling shrinks the colour components' coefficient planes.
            let samplesPerPixel =
                switch header.exifString("jpeg-chroma-subsample") {
                case "4:2:0": 1.5
                case "4:2:2": 2.0
                default: Double(bands)
                }
            decoder += Int(Double(stored) * samplesPerPixel * 2)
        case .heif, .avif: decoder = stored * bands * sampleBytes * 2
        case .png where interlaced: decoder = stored * bands * sampleBytes
        case .webp: decoder = stored * 4
        case .gif: decoder = stored * 5
        case .jpegXL: decoder = stored * (bands * sampleBytes + 6)
        default: break
        }
        if mediaType != .jpeg && mediaType != .heif && mediaType != .avif {
            decoder += storedSize.width * bands * streamedLineBytes(sampleBytes: sampleBytes)
        }
        let decoded = decodeSize.pixelCount * bands * sampleBytes * (header.hasAlpha ? 5 : 4) / 2
        return decoder + decoded + renditionPixels * 4
    }

    /// What libvips' shrink of a file its loaders read holds per sample of one stored line
    /// (``ImageFile/decodeMemory(to:renditionPixels:)`` multiplies it by the width and bands).
    ///
    /// Its line caches keep whole lines, however little of each line the thumbnail needs: the
    /// sequential read's cache and those of the vertical shrink hold more than a thousand lines
    /// of the picture as loaded, and a picture with alpha is premultiplied into 4-byte floats
    /// first. So the memory grows with the width, not the pixel count: a 100000 x 1000 RGBA PNG
    /// took 838 MiB beyond the process's own, a 1000 x 100000 one 60 MiB. The counts are the
    /// measured ones (docs/ARCHITECTURE.md) with a margin; libnsgif's frame goes through more
    /// caches.
    private func streamedLineBytes(sampleBytes: Int) -> Int {
        let lines = mediaType == .gif ? 3072 : 1152
        return lines * sampleBytes + (header.hasAlpha ? 1280 : 0)
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
        Self.decodeError(message, source: source)
    }

    /// libvips' words decide when they are clear (run alone, see ``VipsCallGate``, they describe
    /// this file); otherwise a file whose end marker is missing (a JPEG without EOI, a PNG
    /// without IEND) is truncated, and anything else is corrupt.
    static func decodeError(_ text: String, source: ImageSource) -> ImagingError {
        decodeError(text, mediaType: source.mediaType) { isMissingEndMarker(source) }
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

    private static func isMissingEndMarker(_ source: ImageSource) -> Bool {
        // Trailing zero padding after the end marker is common and harmless.
        var tail = source.readSuffix(count: 64)
        while tail.last == 0 { tail.removeLast() }
        guard !tail.isEmpty else { return false }
        switch source.mediaType {
        case .jpeg: return !tail.suffix(2).elementsEqual([0xFF, 0xD9])
        case .png: return !String(decoding: tail.suffix(12), as: UTF8.self).contains("IEND")
        default: return false
        }
    }
}
