import Foundation
import ThumbsCore
import ThumbsSupport

/// A thumbnail as the store keeps it: the encoded image and when it was made.
///
/// On disk: a small versioned header (version, format, width, height, creation time), then the
/// encoded bytes.
public struct StoredThumbnail: Sendable, Hashable {
    public var thumbnail: Thumbnail
    public var createdAt: Date

    public init(thumbnail: Thumbnail, createdAt: Date = Date()) {
        self.thumbnail = thumbnail
        self.createdAt = createdAt
    }

    static let formatVersion: UInt8 = 1
    static let headerSize = 18

    private static let formats: [ThumbnailFormat] = [.jpeg, .webp, .png]

    /// The record's size on disk.
    package var encodedCount: Int { Self.headerSize + thumbnail.bytes.count }

    /// Writes the record into `target`, which is exactly ``encodedCount`` bytes.
    package func encode(into target: UnsafeMutableRawBufferPointer) {
        var header = ByteWriter(capacity: Self.headerSize)
        header.u8(Self.formatVersion)
        header.u8(UInt8(Self.formats.firstIndex(of: thumbnail.format) ?? 0))
        header.u32(UInt32(thumbnail.pixelSize.width))
        header.u32(UInt32(thumbnail.pixelSize.height))
        header.i64(Int64(createdAt.timeIntervalSince1970))
        header.bytes.withUnsafeBytes { target.copyMemory(from: $0) }
        thumbnail.bytes.withUnsafeBytes {
            UnsafeMutableRawBufferPointer(rebasing: target[Self.headerSize...]).copyMemory(from: $0)
        }
    }

    /// The fixed-size start of a record.
    package struct Header {
        package var format: ThumbnailFormat
        package var pixelSize: PixelSize
        package var createdAt: Date

        package init(decoding record: UnsafeRawBufferPointer) throws(StoreError) {
            var reader = ByteReader(record, record: "thumbnail")
            let version = try reader.u8()
            guard version == StoredThumbnail.formatVersion else {
                throw .store(
                    "thumbnail record version \(version) is not \(StoredThumbnail.formatVersion)", "decode thumbnail")
            }
            let formatIndex = Int(try reader.u8())
            guard formatIndex < StoredThumbnail.formats.count else {
                throw .store("unknown format \(formatIndex)", "decode thumbnail")
            }
            format = StoredThumbnail.formats[formatIndex]
            pixelSize = PixelSize(width: Int(try reader.u32()), height: Int(try reader.u32()))
            createdAt = Date(timeIntervalSince1970: TimeInterval(try reader.i64()))
        }
    }

    /// Reads a record (copying the image bytes out of the map).
    package init(decoding record: UnsafeRawBufferPointer) throws(StoreError) {
        let header = try Header(decoding: record)
        self.init(
            thumbnail: Thumbnail(
                bytes: Array(record[Self.headerSize...]), pixelSize: header.pixelSize,
                format: header.format),
            createdAt: header.createdAt)
    }
}
