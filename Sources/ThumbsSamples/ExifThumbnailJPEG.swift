import ThumbsCore
import ThumbsImaging

/// A JPEG with an EXIF orientation and an EXIF (IFD1) thumbnail, assembled byte by byte, since
/// libvips writes no EXIF thumbnails of its own.
///
/// ```swift
/// let jpeg = try ExifThumbnailJPEG.make(SyntheticImage(width: 1600, height: 1200),
///                                      thumbnail: PixelSize(width: 160, height: 120), orientation: 6)
/// ```
public enum ExifThumbnailJPEG {
    /// `image` as a JPEG whose pixels are stored turned for `orientation`, carrying a
    /// `thumbnail`-sized copy stored the same way as its EXIF thumbnail; `damaged` keeps only the
    /// first half of the thumbnail.
    public static func make(
        _ image: SyntheticImage, thumbnail: PixelSize, orientation: Int,
        damaged: Bool = false
    ) throws -> [UInt8] {
        let main = withoutAPP1(try image.encoded(as: .jpeg, orientation: orientation))
        let small = SyntheticImage(width: thumbnail.width, height: thumbnail.height, pixels: image.pixels)
        var preview = withoutAPP1(try small.encoded(as: .jpeg, orientation: orientation, quality: 80))
        if damaged { preview = Array(preview.prefix(preview.count / 2)) }
        let app1 = exifSegment(orientation: orientation, thumbnail: preview)
        return Array(main.prefix(2)) + app1 + Array(main.dropFirst(2))
    }

    /// Drops APP1 (EXIF/XMP) segments, keeping everything else byte for byte.
    public static func withoutAPP1(_ jpeg: [UInt8]) -> [UInt8] {
        var output = Array(jpeg.prefix(2))
        var offset = 2
        while offset + 4 <= jpeg.count, jpeg[offset] == 0xFF {
            let marker = jpeg[offset + 1]
            if marker == 0xDA { break }  // start of scan: the rest is image data
            let length = Int(jpeg[offset + 2]) << 8 | Int(jpeg[offset + 3])
            if marker != 0xE1 { output += jpeg[offset..<offset + 2 + length] }
            offset += 2 + length
        }
        return output + jpeg[offset...]
    }

    private static func exifSegment(orientation: Int, thumbnail: [UInt8]) -> [UInt8] {
        // Little-endian TIFF: IFD0 (Orientation) at 8, IFD1 (the thumbnail) at 26, data at 68.
        var tiff: [UInt8] = [0x49, 0x49, 0x2A, 0x00] + le32(8)
        tiff += le16(1) + entry(tag: 0x0112, type: 3, value: UInt32(orientation)) + le32(26)
        tiff += le16(3)
        tiff += entry(tag: 0x0103, type: 3, value: 6)  // Compression: JPEG
        tiff += entry(tag: 0x0201, type: 4, value: 68)  // JPEGInterchangeFormat
        tiff += entry(tag: 0x0202, type: 4, value: UInt32(thumbnail.count))  // ...Length
        tiff += le32(0)
        tiff += thumbnail
        let payload = Array("Exif".utf8) + [0, 0] + tiff
        let length = payload.count + 2
        return [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    }

    private static func entry(tag: UInt16, type: UInt16, value: UInt32) -> [UInt8] {
        le16(tag) + le16(type) + le32(1) + (type == 3 ? le16(UInt16(value)) + [0, 0] : le32(value))
    }

    private static func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
    private static func le32(_ value: UInt32) -> [UInt8] {
        [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24)]
    }
}
