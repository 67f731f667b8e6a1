import CJpegShim
import Glibc
import ThumbsCore
import ThumbsRendering

/// What an Ultra HDR JPEG gives its renditions' gain maps: the gain map it stores (the second
/// picture of its MPF index), resized with the picture, its metadata carried over (its `hdrgm`
/// XMP, else its ISO 21496-1 segment). A JPEG whose gain map states neither, or does not
/// decode, gives none: its renditions are the SDR picture alone.
extension JPEGHandler {
    /// The largest gain map read: an Ultra HDR JPEG's is a few hundred kilobytes.
    static let largestGainMap = 64 << 20

    func gainMapSource(
        _ source: ImageSource, size: PixelSize, fill: Bool, engine: VipsRenderer
    ) throws(ImagingError) -> GainMapSource? {
        let bytes = FileBytes(source.file, size: source.fingerprint.size)
        guard let header = JPEGHeader(in: bytes),
            let index = JPEGSegments(in: bytes).segments.last(where: {
                $0.marker == 0xE2 && $0.prefix.matches("MPF\0".utf8, at: 0)
            }),
            let range = UltraHDRJPEG.gainMapRange(
                in: bytes.read(at: 0, count: Int(index.payloadOffset) + index.payloadLength).bytes,
                length: Int(clamping: source.fingerprint.size)),
            range.count <= Self.largestGainMap
        else { return nil }
        let gainMap = bytes.read(at: UInt64(range.lowerBound), count: range.count).bytes
        guard gainMap.count == range.count,
            let metadata = UltraHDRJPEG.xmpPacket(in: gainMap).flatMap({ GainMapMetadata(xmp: XMPPacket($0)) })
                ?? UltraHDRJPEG.iso21496Payload(in: gainMap).flatMap(GainMapMetadata.init(iso21496:))
        else { return nil }
        return try decoded(gainMap, metadata: metadata, orientation: header.orientation, size: size, fill: fill)
            .map { .stored($0, metadata) }
    }

    /// The gain map JPEG decoded at the DCT scale that leaves it at least twice `size` once
    /// turned upright by `orientation`, its values 0...1; nil when it does not decode, or its
    /// channels are not the metadata's.
    private func decoded(
        _ gainMap: [UInt8], metadata: GainMapMetadata, orientation: Int, size: PixelSize, fill: Bool
    ) throws(ImagingError) -> GainPlane? {
        guard let stored = JPEGHeader(in: FileBytes(gainMap))?.storedSize else { return nil }
        let upright = orientation >= 5 ? stored.transposed : stored
        let scale = VipsRenderer.decodeShrink(upright, to: size, cover: fill)
        var picture = thumbs_jpeg_picture()
        defer { thumbs_jpeg_free(&picture) }
        guard
            gainMap.withUnsafeBufferPointer({ thumbs_jpeg_decode_bytes($0.baseAddress, $0.count, scale, &picture) })
                == Int32(THUMBS_JPEG_DECODED), let pixels = picture.pixels,
            metadata.channels == 1 || Int(picture.bands) == metadata.channels
        else { return nil }
        let count = Int(picture.width) * Int(picture.height) * Int(picture.bands)
        let values = UnsafeBufferPointer(start: pixels, count: count).map { Float($0) / 255 }
        return GainPlane(
            size: PixelSize(width: Int(picture.width), height: Int(picture.height)), channels: Int(picture.bands),
            values: values)?.upright(orientation: orientation)
    }
}
