import ThumbsCore
import ThumbsRendering

/// A file whose pictures a library other than libvips decodes whole, before they are resized
/// (``DecodedPicture``): a video (``VideoFile``), a camera RAW file (``RawFile``), an AVIF image sequence
/// (``AVIFSequenceFile``). Opening it reads the header only.
protocol PictureFile {
    var source: ImageSource { get }
    /// What its header tells.
    var properties: ImageProperties { get }
    /// Whether a degraded picture can be had at all (a RAW without a preview has none cheaper
    /// than its final one, nor has an AVIF sequence).
    var hasDegradedPicture: Bool { get }
    /// The whole picture, at least `covering` (upright) where the file holds that much: a
    /// video's poster frame, a RAW's preview or half-size decode, a sequence's first frame.
    /// `degraded`: the cheapest acceptable one (a video's cover or first keyframe, a RAW's
    /// preview whatever its size).
    func picture(covering: PixelSize, degraded: Bool) throws(ImagingError) -> DecodedPicture
    /// What decoding a picture of at least `covering` takes, with `renditionPixels` more pixels
    /// for the renditions made from it.
    func decodeMemory(covering: PixelSize, renditionPixels: Int) -> Int
}

extension PictureFile {
    var uprightSize: PixelSize { properties.pixelSize }

    /// Fails with ``/ThumbsCore/ImagingError/changedWhileRendering`` if the file is not the
    /// version opened.
    func ensureUnchanged() throws(ImagingError) {
        try source.ensureUnchanged()
    }
}

extension VideoFile: PictureFile {
    var hasDegradedPicture: Bool { true }

    func picture(covering: PixelSize, degraded: Bool) throws(ImagingError) -> DecodedPicture {
        try poster(covering: covering, degraded: degraded)
    }
}

extension RawFile: PictureFile {
    var hasDegradedPicture: Bool { previewSize != nil }
}

extension AVIFSequenceFile: PictureFile {
    var hasDegradedPicture: Bool { false }

    func picture(covering: PixelSize, degraded: Bool) throws(ImagingError) -> DecodedPicture {
        try firstFrame()
    }
}
