import CRawShim
import Foundation
import ThumbsCore
import ThumbsRendering
import ThumbsSupport

/// A camera RAW file opened with LibRaw: what its header says, read without decoding the sensor
/// data. Thumbnails come from the largest embedded preview when it covers them (most cameras
/// embed a full-size or 1–2 MP JPEG), else from a half-size decode of the sensor data.
///
/// LibRaw reads the file already opened beneath its root, mapped into memory, never a path.
struct RawFile {
    let source: ImageSource
    /// The picture as a full decode would make it, as stored (before orientation).
    let storedSize: PixelSize
    /// EXIF orientation (1...8) from LibRaw's `flip`.
    let orientation: Int
    /// The largest embedded preview, as stored, and whether it is a JPEG (else a bitmap).
    let previewSize: PixelSize?
    /// Whether LibRaw can decode the sensor data (it cannot for some compressions and cameras).
    let isDecodable: Bool
    let properties: ImageProperties
    private let pixelLimit: Int
    private let timeLimit: Duration

    init(_ source: ImageSource, pixelLimit: Int, timeLimit: Duration) throws(ImagingError) {
        self.source = source
        self.timeLimit = timeLimit
        try DecodingLibrary.libRaw.open()
        var info = thumbs_raw_info()
        var message = [CChar](repeating: 0, count: 256)
        let status = thumbs_raw_probe(source.descriptor, &info, &message, message.count)
        guard status == THUMBS_RAW_OK else {
            throw Self.error(status, message: String(cMessage: message), timeLimit: timeLimit)
        }
        storedSize = try PixelSize.decoded(width: info.width, height: info.height, pixelLimit: pixelLimit)
        self.pixelLimit = pixelLimit
        let orientation = (1...8).contains(Int(info.exif_orientation)) ? Int(info.exif_orientation) : 1
        self.orientation = orientation
        previewSize =
            info.preview_format == 0 || info.preview_width <= 0 || info.preview_height <= 0
            ? nil : PixelSize(width: Int(info.preview_width), height: Int(info.preview_height))
        isDecodable = info.decodable != 0
        let upright = orientation >= 5 ? storedSize.transposed : storedSize
        properties = ImageProperties(
            mediaType: .cameraRaw, pixelSize: upright, exifOrientation: orientation,
            captureDate: info.timestamp > 0
                ? CaptureDate(localTime: Date(timeIntervalSince1970: TimeInterval(info.timestamp))) : nil,
            cameraMake: String(fixedCString: info.make), cameraModel: String(fixedCString: info.model),
            embeddedPreviewSize: previewSize.map { orientation >= 5 ? $0.transposed : $0 },
            fingerprint: source.fingerprint)
    }

    /// Whether the embedded preview alone makes a picture of at least `covering` (upright): as
    /// large, and of the photo's shape (a preview of another shape is not the whole photo).
    func previewCovers(_ covering: PixelSize) -> Bool {
        guard let previewSize else { return false }
        let upright = orientation >= 5 ? previewSize.transposed : previewSize
        let photo = properties.pixelSize
        let photoAspect = Double(photo.width) / Double(max(1, photo.height))
        let previewAspect = Double(upright.width) / Double(max(1, upright.height))
        return upright.width >= covering.width && upright.height >= covering.height
            && abs(previewAspect / photoAspect - 1) < 0.05
    }

    /// The picture, at least `covering` (upright) where the file holds that much, to be turned
    /// upright by libvips: the embedded preview when it covers it (shrunk while the JPEG is
    /// decoded), else a half-size decode. `degraded` takes the preview whatever its size, when
    /// there is one.
    func picture(covering: PixelSize, degraded: Bool) throws(ImagingError) -> DecodedPicture {
        let usePreview = previewSize != nil && (degraded || previewCovers(covering) || !isDecodable)
        guard usePreview || isDecodable else {
            throw .unsupportedFormat("camera raw LibRaw cannot decode, with no embedded preview")
        }
        var image = thumbs_raw_image()
        defer { thumbs_raw_image_free(&image) }
        var message = [CChar](repeating: 0, count: 256)
        var status =
            usePreview
            ? thumbs_raw_preview(source.descriptor, &image, &message, message.count)
            : thumbs_raw_half_decode(source.descriptor, timeLimit.seconds, &image, &message, message.count)
        if usePreview, status == THUMBS_RAW_NO_PREVIEW, isDecodable, !degraded {
            // A preview cut short or of a kind LibRaw cannot hand out: the sensor data may
            // still decode.
            status = thumbs_raw_half_decode(source.descriptor, timeLimit.seconds, &image, &message, message.count)
        }
        guard status == THUMBS_RAW_OK, let bytes = image.bytes else {
            throw Self.error(status, message: String(cMessage: message), timeLimit: timeLimit)
        }
        let size = try PixelSize.decoded(width: image.width, height: image.height, pixelLimit: pixelLimit)
        guard image.is_jpeg != 0 || image.size == size.pixelCount * 3 else {
            throw .corrupt("LibRaw made \(image.size) bytes for a \(size) picture")
        }
        let copied = Array(UnsafeBufferPointer(start: bytes, count: image.size))
        if image.is_jpeg != 0 {
            // The preview is stored as the sensor saw it: the covering size turned the same way.
            let stored = orientation >= 5 ? covering.transposed : covering
            let shrink = degraded ? 1 : VipsRenderer.decodeShrink(size, to: stored, cover: true)
            return DecodedPicture(content: .jpeg(copied, shrink: shrink), orientation: Int(image.exif_orientation))
        }
        return DecodedPicture(
            content: .rgb(copied, size), orientation: Int(image.exif_orientation), shape: properties.pixelSize)
    }

    /// The memory a picture of at least `covering` takes: a half decode holds the sensor data
    /// (2 bytes a photosite), the half-size image (four 16-bit channels) and its 8-bit copy; a
    /// preview much less.
    func decodeMemory(covering: PixelSize, renditionPixels: Int) -> Int {
        let pictures = renditionPixels * 4 + covering.pixelCount * 3 * 2
        guard !previewCovers(covering), isDecodable else { return pictures + (previewSize?.pixelCount ?? 0) * 3 }
        return pictures + storedSize.pixelCount * 2 + storedSize.pixelCount / 4 * 11
    }

    static func error(_ status: thumbs_raw_status, message: String, timeLimit: Duration) -> ImagingError {
        switch status {
        case THUMBS_RAW_UNREADABLE: .unreadable(message)
        case THUMBS_RAW_UNSUPPORTED: .unsupportedFormat("camera raw LibRaw cannot decode: \(message)")
        case THUMBS_RAW_NO_PREVIEW: .unsupportedFormat("camera raw with no preview LibRaw can read: \(message)")
        case THUMBS_RAW_TIMED_OUT: .timedOut(timeLimit)
        case THUMBS_RAW_NO_MEMORY: .unreadable("out of memory")
        default: .corrupt(message)
        }
    }
}

extension CaptureDate {
    /// The local wall clock of `instant`, with no offset recorded: for times a library turned
    /// into an instant by reading them as this machine's local time (LibRaw's `mktime`).
    init(localTime instant: Date) {
        self.init(instant: instant, timeZone: .current)
        utcOffsetSeconds = nil
    }
}
