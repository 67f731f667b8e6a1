import ThumbsCore
import ThumbsSupport

/// What the metadata cache (the "file-size cache" a photo picker keeps) keeps per asset, so that re-enumerating
/// an unchanged library and summing file sizes need neither the file system's metadata beyond a
/// stat nor a probe.
///
/// Valid while the file's ``fingerprint`` is unchanged, and so is its placeholder.
public struct AssetMetadata: Sendable, Hashable {
    public var fingerprint: FileFingerprint
    public var mediaType: MediaType
    /// What the imaging probe read from the header (photos, camera RAW, videos); nil when it
    /// could not be read.
    public var properties: ImageProperties?
    /// The photo's placeholder, made from one of its thumbnails of this ``fingerprint``; nil
    /// until one is made (see ``ThumbnailStore/setPlaceholder(_:for:fingerprint:)``).
    public var placeholder: ThumbHash?
    /// Whether the file's decode ended early at this ``fingerprint`` (a truncated or damaged
    /// file that was not still being written): its thumbnails show what decoded.
    public var isPartial = false
    /// The ``/ThumbsCore/ContentIdentity/signature`` of the file at this ``fingerprint``, by which the
    /// cache recognises it moved or copied; nil in records written before it was kept.
    public var contentSignature: UInt64?

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

    /// Whether the record was written before the probe read what it reads now of its file
    /// (`MetadataRecordVersion.isOutdated(for:)`): the file is to be inspected again.
    package var isOutdated = false

    package func encoded() -> [UInt8] {
        var writer = ByteWriter(capacity: 128)
        writer.u8(MetadataRecordVersion.current.rawValue)
        writer.u64(fingerprint.size)
        writer.i64(fingerprint.modificationTimeNanoseconds)
        writer.string(mediaType.rawValue)
        if let properties {
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
            writer.u8(properties.video == nil ? 0 : 1)
            if let video = properties.video {
                writer.string(video.container)
                writer.string(video.codec)
                writer.f64(video.duration ?? -1)
                writer.f64(video.frameRate ?? 0)
                writer.u8(video.hasAudio ? 1 : 0)
            }
            writer.optionalString(properties.contentIdentifier)
            writer.u8(properties.embeddedMovie == nil ? 0 : 1)
            writer.u64(properties.embeddedMovie?.offset ?? 0)
            writer.u64(properties.embeddedMovie?.length ?? 0)
            writer.f64(properties.embeddedMovie?.duration ?? -1)
            writer.u32(properties.mediaSubtypes.rawValue)
            writer.optionalString(properties.burst?.identifier)
            writer.u8(properties.burst?.isCover == true ? 1 : 0)
        } else {
            writer.u8(0)
        }
        writer.u8(placeholder == nil ? 0 : 1)
        if let placeholder { writer.lengthPrefixed(placeholder.bytes) }
        writer.u8(isPartial ? 1 : 0)
        writer.u8(contentSignature == nil ? 0 : 1)
        writer.u64(contentSignature ?? 0)
        return writer.bytes
    }

    package init(decoding record: UnsafeRawBufferPointer) throws(StoreError) {
        var reader = ByteReader(record, record: "metadata")
        let byte = try reader.u8()
        guard let version = MetadataRecordVersion(rawValue: byte) else {
            throw .store(
                "metadata record version \(byte) is not 1 to \(MetadataRecordVersion.current.rawValue)",
                "decode metadata")
        }
        fingerprint = FileFingerprint(size: try reader.u64(), modificationTimeNanoseconds: try reader.i64())
        let typeName = try reader.string()
        guard let type = MediaType(rawValue: typeName) else {
            throw .store("unknown media type \(typeName)", "decode metadata")
        }
        mediaType = type
        isOutdated = version.isOutdated(for: type)
        properties = try reader.u8() == 1 ? try Self.properties(&reader, type, fingerprint, version: version) : nil
        guard version >= .placeholders else { return }
        if try reader.u8() == 1 {
            // Bytes that are not a whole hash cost the placeholder only: the next warm makes another.
            placeholder = ThumbHash(bytes: Array(try reader.lengthPrefixed()))
        }
        guard version >= .livePhotosSubtypesAndBursts else { return }
        isPartial = try reader.u8() == 1
        guard version >= .contentSignatures else { return }
        let hasSignature = try reader.u8() == 1
        let signature = try reader.u64()
        contentSignature = hasSignature ? signature : nil
    }

    /// The file's content identity, when the record keeps its signature.
    public var contentIdentity: ContentIdentity? {
        contentSignature.map { ContentIdentity(fingerprint: fingerprint, signature: $0) }
    }

    /// A picture size as ``encoded()`` wrote it. No probe reports more pixels than the largest
    /// pixel limit, so a size past it is damage, refused before its pixel count (two 32-bit
    /// sides multiplied) could overflow; a side of 0 is kept, as records of videos probed
    /// before their sizes were checked hold one.
    private static func pictureSize(_ reader: inout ByteReader) throws(StoreError) -> PixelSize {
        let width = try reader.u32(), height = try reader.u32()
        guard UInt64(width) * UInt64(height) <= UInt64(PixelSize.largestPixelCount) else {
            throw .store("a picture of \(width)x\(height) pixels, past any pixel limit", "decode metadata")
        }
        return PixelSize(width: Int(width), height: Int(height))
    }

    private static func properties(
        _ reader: inout ByteReader, _ type: MediaType, _ fingerprint: FileFingerprint, version: MetadataRecordVersion
    ) throws(StoreError) -> ImageProperties {
        let size = try pictureSize(&reader)
        let orientation = Int(try reader.u8())
        let date = try reader.optionalString().flatMap(CaptureDate.init(parsing:))
        let make = try reader.optionalString()
        let model = try reader.optionalString()
        let hasPreview = try reader.u8() == 1
        let preview = try pictureSize(&reader)
        let pageCount = Int(try reader.u32())
        var video: VideoProperties?
        if version >= .videos, try reader.u8() == 1 {
            let container = try reader.string(), codec = try reader.string()
            let duration = try reader.f64(), frameRate = try reader.f64()
            // A damaged record may hold any bit pattern: what is not a finite length or rate
            // (NaN, infinities, negatives) is unknown, as the probe would have said.
            video = VideoProperties(
                container: container, codec: codec, duration: duration.isFinite && duration >= 0 ? duration : nil,
                frameRate: frameRate.isFinite && frameRate > 0 ? frameRate : nil, hasAudio: try reader.u8() == 1)
        }
        var properties = ImageProperties(
            mediaType: type, pixelSize: size, exifOrientation: orientation == 0 ? nil : orientation,
            captureDate: date, cameraMake: make, cameraModel: model,
            embeddedPreviewSize: hasPreview ? preview : nil, pageCount: pageCount,
            fingerprint: fingerprint, video: video)
        if version >= .livePhotosSubtypesAndBursts {
            properties.contentIdentifier = try reader.optionalString()
            let hasMovie = try reader.u8() == 1
            let offset = try reader.u64(), length = try reader.u64(), duration = try reader.f64()
            // A damaged record's range is kept as read: whoever serves the movie checks it
            // against the file, as it does a probe's.
            if hasMovie {
                properties.embeddedMovie = EmbeddedMovie(
                    offset: offset, length: length, duration: duration.isFinite && duration >= 0 ? duration : nil)
            }
            properties.mediaSubtypes = MediaSubtypes(rawValue: try reader.u32())
            let burst = try reader.optionalString()
            let isCover = try reader.u8() == 1
            properties.burst = burst.map { BurstMembership(identifier: $0, isCover: isCover) }
        }
        return properties
    }
}
