import ThumbsImaging
import ThumbsSupport

/// What the metadata cache (the "file-size cache" a photo picker keeps) keeps per asset, so that re-enumerating
/// an unchanged library and summing file sizes need neither the file system's metadata beyond a
/// stat nor a probe.
///
/// Valid while the file's ``fingerprint`` is unchanged.
public struct AssetMetadata: Sendable, Hashable {
    public var fingerprint: FileFingerprint
    public var mediaType: MediaType
    /// What the imaging probe read from the header, for images; nil for videos.
    public var properties: ImageProperties?

    public init(fingerprint: FileFingerprint, mediaType: MediaType, properties: ImageProperties? = nil) {
        self.fingerprint = fingerprint
        self.mediaType = mediaType
        self.properties = properties
    }

    /// The metadata of a probed image.
    public init(_ properties: ImageProperties) {
        self.init(fingerprint: properties.fingerprint, mediaType: properties.mediaType, properties: properties)
    }

    public var fileSize: UInt64 { fingerprint.size }

    static let formatVersion: UInt8 = 1

    package func encoded() -> [UInt8] {
        var writer = ByteWriter(capacity: 96)
        writer.u8(Self.formatVersion)
        writer.u64(fingerprint.size)
        writer.i64(fingerprint.modificationTimeNanoseconds)
        writer.string(mediaType.rawValue)
        guard let properties else {
            writer.u8(0)
            return writer.bytes
        }
        writer.u8(1)
        writer.u32(UInt32(properties.pixelSize.width))
        writer.u32(UInt32(properties.pixelSize.height))
        writer.u8(UInt8(properties.exifOrientation ?? 0))
        writer.optionalString(properties.captureDate?.description)
        writer.optionalString(properties.cameraMake)
        writer.optionalString(properties.cameraModel)
        writer.u8(properties.embeddedPreviewSize == nil ? 0 : 1)
        writer.u32(UInt32(properties.embeddedPreviewSize?.width ?? 0))
        writer.u32(UInt32(properties.embeddedPreviewSize?.height ?? 0))
        writer.u32(UInt32(properties.pageCount))
        return writer.bytes
    }

    package init(decoding record: UnsafeRawBufferPointer) throws(StoreError) {
        var reader = ByteReader(record, record: "metadata")
        let version = try reader.u8()
        guard version == Self.formatVersion else {
            throw .store("metadata record version \(version) is not \(Self.formatVersion)", "decode metadata")
        }
        fingerprint = FileFingerprint(size: try reader.u64(), modificationTimeNanoseconds: try reader.i64())
        let typeName = try reader.string()
        guard let type = MediaType(rawValue: typeName) else {
            throw .store("unknown media type \(typeName)", "decode metadata")
        }
        mediaType = type
        guard try reader.u8() == 1 else {
            properties = nil
            return
        }
        let size = PixelSize(width: Int(try reader.u32()), height: Int(try reader.u32()))
        let orientation = Int(try reader.u8())
        let date = try reader.optionalString().flatMap(CaptureDate.init(parsing:))
        let make = try reader.optionalString()
        let model = try reader.optionalString()
        let hasPreview = try reader.u8() == 1
        let preview = PixelSize(width: Int(try reader.u32()), height: Int(try reader.u32()))
        properties = ImageProperties(
            mediaType: type, pixelSize: size, exifOrientation: orientation == 0 ? nil : orientation,
            captureDate: date, cameraMake: make, cameraModel: model,
            embeddedPreviewSize: hasPreview ? preview : nil, pageCount: Int(try reader.u32()),
            fingerprint: fingerprint)
    }
}
