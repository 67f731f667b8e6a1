import Foundation
import Testing
import ThumbsCore
@testable import ThumbsStore
import ThumbsSupport

@Suite struct AssetMetadataTests {
    let fingerprint = FileFingerprint(size: 2_182_707, modificationTimeNanoseconds: 42)
    /// A hash of a 100 × 75 opaque image (see ThumbHashTests).
    let placeholder = ThumbHash(base64: "IQcGXYJ/OHdXR6d3d3p3d3B3197A")!

    private var photo: AssetMetadata {
        AssetMetadata(
            ImageProperties(
                mediaType: .jpeg, pixelSize: PixelSize(width: 4000, height: 3000), exifOrientation: 6,
                captureDate: CaptureDate(exif: "2022:02:16 12:55:41", offset: "+01:00"), cameraMake: "Canon",
                cameraModel: "EOS", embeddedPreviewSize: PixelSize(width: 160, height: 120), pageCount: 1,
                fingerprint: fingerprint))
    }

    private func decoded(_ record: [UInt8]) throws -> AssetMetadata {
        try record.withUnsafeBytes { bytes throws(StoreError) in try AssetMetadata(decoding: bytes) }
    }

    @Test func recordsRoundTripWithAndWithoutAPlaceholder() throws {
        var video = AssetMetadata(fingerprint: fingerprint, mediaType: .mp4)
        var withPlaceholder = photo
        withPlaceholder.placeholder = placeholder
        let probedVideo = AssetMetadata(
            ImageProperties(
                mediaType: .quickTime, pixelSize: PixelSize(width: 1080, height: 1920),
                captureDate: CaptureDate(exif: "2020:04:17 10:03:47", offset: "-06:00"), fingerprint: fingerprint,
                video: VideoProperties(container: "mov", codec: "hevc", duration: 2.9, frameRate: 29.97, hasAudio: true)
            ))
        var signed = photo
        signed.contentSignature = 0xFEED_FACE_CAFE_BEEF
        for metadata in [photo, withPlaceholder, video, probedVideo, signed] {
            let record = metadata.encoded()
            #expect(record[0] == 5)
            #expect(try decoded(record) == metadata)
        }
        video.placeholder = placeholder
        #expect(try decoded(video.encoded()).placeholder == placeholder)
    }

    /// The layout of version 1, written field by field: a cache made before placeholders.
    @Test func versionOneRecordsReadWithoutAPlaceholder() throws {
        var writer = ByteWriter()
        writer.u8(1)
        writer.u64(fingerprint.size)
        writer.i64(fingerprint.modificationTimeNanoseconds)
        writer.string("mp4")
        writer.u8(0)
        let video = try decoded(writer.bytes)
        #expect(video.mediaType == .mp4 && video.properties == nil && video.placeholder == nil)
        // Written before videos were probed: the file is to be inspected again.
        #expect(video.isOutdated)

        // Version 1 of a photo: version 5 without its video flag, Live Photo fields (1 + 1 + 24
        // bytes), subtypes and burst (4 + 1 + 1), placeholder flag, partial flag and content
        // signature (1 + 8).
        var photoRecord = Array(photo.encoded().dropLast(43))
        photoRecord[0] = 1
        var read = try decoded(photoRecord)
        // A photo written before Live Photos, subtypes and bursts were read is inspected again.
        #expect(read.isOutdated)
        read.isOutdated = false
        #expect(read == photo && read.placeholder == nil)
        var unsupported = AssetMetadata(fingerprint: fingerprint, mediaType: .unsupported)
        unsupported.isOutdated = false
        var record = unsupported.encoded()
        record[0] = 3
        #expect(try !decoded(Array(record.dropLast())).isOutdated, "a file that is no asset has nothing more to read")
    }

    /// Version 4 ended with the partial flag: its records read without a content signature,
    /// and are not outdated for it.
    @Test func versionFourRecordsReadWithoutAContentSignature() throws {
        var signed = photo
        signed.contentSignature = 42
        var record = Array(signed.encoded().dropLast(9))
        record[0] = 4
        let read = try decoded(record)
        #expect(read.contentSignature == nil && !read.isOutdated && read == photo)
    }

    @Test func liveFieldsSubtypesBurstsAndThePartialFlagRoundTrip() throws {
        var live = photo
        live.properties?.contentIdentifier = "1EA799FF-8384-4BC4-87AA-139A814D9125"
        live.properties?.embeddedMovie = EmbeddedMovie(offset: 452_284, length: 3_226_469, duration: 2.9)
        live.isPartial = true
        live.properties?.mediaSubtypes = [.photoScreenshot, .photoDepthEffect]
        live.properties?.burst = BurstMembership(identifier: "8E4C2B7A-burst", isCover: true)
        #expect(try decoded(live.encoded()) == live)
        // A damaged duration reads as unknown, as a video's does.
        live.properties?.embeddedMovie?.duration = .nan
        #expect(try decoded(live.encoded()).properties?.embeddedMovie?.duration == nil)
    }

    @Test func aDamagedPlaceholderCostsOnlyThePlaceholder() throws {
        var metadata = photo
        metadata.placeholder = placeholder
        var record = metadata.encoded()
        // The hash's fourth byte says how many terms follow: 0 is none, which no hash has. The
        // partial flag and the content signature (9 bytes) end the record.
        record[record.count - 10 - placeholder.bytes.count + 3] &= ~7
        #expect(try decoded(record) == photo)
        // Cut short, the record is damaged: an error, as for any other field.
        #expect(throws: StoreError.self) { try decoded(Array(metadata.encoded().dropLast(3))) }
        var future = metadata.encoded()
        future[0] = 6
        #expect(throws: StoreError.self) { try decoded(future) }
    }

    /// A damaged record may hold any bits where a duration or frame rate was: a NaN would make
    /// the record unequal to itself once read back, so what is not finite reads as unknown.
    @Test func aDurationOrRateThatIsNotANumberReadsAsUnknown() throws {
        for damaged in [Double.nan, -.infinity, .infinity] {
            let video = ImageProperties(
                mediaType: .mp4, pixelSize: PixelSize(width: 640, height: 360), fingerprint: fingerprint,
                video: VideoProperties(
                    container: "mp4", codec: "h264", duration: damaged, frameRate: damaged, hasAudio: false))
            let read = try decoded(AssetMetadata(video).encoded())
            #expect(read.properties?.video?.duration == nil && read.properties?.video?.frameRate == nil)
            #expect(try decoded(read.encoded()) == read)
        }
    }

    /// Sides are 32 bits each: a damaged record's product could pass what an `Int` holds, and
    /// a warm sorting assets by pixel count would trap. No probe reports more than the largest
    /// pixel limit, so such a size is damage; a 0x0 video of an older version still reads.
    @Test func aPictureSizePastAnyPixelLimitIsDamage() throws {
        let widest = Int(UInt32.max)
        for (size, preview) in [
            (PixelSize(width: widest, height: widest), PixelSize(width: 160, height: 120)),
            (PixelSize(width: 4000, height: 3000), PixelSize(width: widest, height: 3)),
            (PixelSize(width: 100_001, height: 100_000), PixelSize(width: 160, height: 120)),
        ] {
            let damaged = ImageProperties(
                mediaType: .jpeg, pixelSize: size, embeddedPreviewSize: preview, pageCount: 1,
                fingerprint: fingerprint)
            #expect(throws: StoreError.self) { try decoded(AssetMetadata(damaged).encoded()) }
        }
        let largest = ImageProperties(
            mediaType: .tiff, pixelSize: PixelSize(width: 100_000, height: 100_000), pageCount: 1,
            fingerprint: fingerprint)
        #expect(try decoded(AssetMetadata(largest).encoded()) == AssetMetadata(largest))
        let unsized = ImageProperties(
            mediaType: .mp4, pixelSize: PixelSize(width: 0, height: 0), fingerprint: fingerprint)
        #expect(try decoded(AssetMetadata(unsized).encoded()).properties?.pixelSize == PixelSize(width: 0, height: 0))
    }
}
