import CVips
import CVipsShim
import Foundation
import ThumbsCore
import ThumbsImaging
import ThumbsLibrary
import ThumbsFreedesktop
import ThumbsStore

/// Seed inputs that only the program can make well: the store's binary records, written by its
/// own encoders, and the magic numbers of every media type. `scripts/fuzz` adds what comes from
/// files (photos, config.json, the documentation's examples).
enum FuzzSeeds {
    static func write(to folder: String) {
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for (parser, inputs) in all() {
            for (index, input) in inputs.enumerated() {
                let path = "\(folder)/encoded-\(parser)-\(index)"
                _ = FileManager.default.createFile(atPath: path, contents: Data([parser.rawValue] + input))
            }
        }
    }

    private static func all() -> [(FuzzedParser, [[UInt8]])] {
        [
            (.sniffing, magicNumbers.map { $0.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) } }),
            (
                .captureDate,
                ["2022:02:16 12:55:41\0+01:00", "2019:07:04 09:30:00", "0000:00:00 00:00:00\0-03:30"].map {
                    Array($0.utf8)
                }
            ),
            (.renditionKey, renditions.map(\.storageKey)),
            (.metadataRecord, metadata.map { $0.encoded() }),
            (
                .failureRecord,
                ImagingError.Kind.allCases.map {
                    FailureRecord(kind: $0, message: "\($0)", failedAt: created).encoded()
                }
            ),
            (.thumbnailRecord, ThumbnailFormat.allCases.map(thumbnailRecord)),
            (.cursorRecord, [snapshot.cursorRecord, FetchResult(assets: []).cursorRecord]),
            (.lmdbFile, cacheFile().map { [$0] } ?? []),
            (.iccProfile, ["srgb", "p3", "cmyk"].compactMap(profile)),
            (.desktopThumbnail, desktopThumbnails()),
            (.appleMakerNote, [appleEXIF, Array(appleEXIF.dropFirst(makerNoteOffset))]),
            (.motionPhotoXMP, motionPhotoPackets.map { Array($0.utf8) }),
            (.embeddedMovie, [movie, box("ftyp", Array("heic".utf8)) + box("mpvd", movie)]),
            (.subtypeXMP, subtypePackets.map { Array($0.utf8) }),
            (.heifMetaBox, [heifMeta]),
            (.ultraHDR, ultraHDR),
            (.jpegSegments, [[0xFF, 0xE2, 0, 30] + Array("urn:iso:std:iso:ts:21496:-1\0".utf8) + [0, 0, 0xFF, 0xDA]]),
            // IHDR of a 2x2 RGB picture, an iCCP chunk, IDAT (the chunks' CRCs are not read).
            (
                .pngChunks,
                [
                    [0, 0, 0, 13] + Array("IHDR".utf8) + [0, 0, 0, 2, 0, 0, 0, 2, 8, 2, 0, 0, 0] + [0, 0, 0, 0]
                        + [0, 0, 0, 5] + Array("iCCPp3".utf8) + [0, 0, 0] + [0, 0, 0, 0] + [0, 0, 0, 0]
                        + Array("IDAT".utf8)
                ]
            ),
            (
                .burstFileName,
                ["00000IMG_00000_BURST20201123164411530_COVER.jpg", "IMG_20180914_094602055_BURST001.jpg"].map {
                    Array($0.utf8)
                }
            ),
        ]
    }

    /// An Ultra HDR JPEG's layout around the outlines of two JPEGs (SOI, a scan, EOI) (without
    /// its SOI: the check adds it), and the gain map's metadata alone, in one channel and in
    /// three, as XMP and in ISO 21496-1's binary form.
    private static let ultraHDR: [[UInt8]] = {
        let outline: [UInt8] = [0xFF, 0xD8, 0xFF, 0xDA, 0x00, 0x02, 0x11, 0x22, 0xFF, 0xD9]
        let one = GainMapMetadata(
            minimum: [0], maximum: [2.5], gamma: [1], offsetSDR: [1.0 / 64], offsetHDR: [1.0 / 64], capacityMinimum: 0,
            capacityMaximum: 2.5)
        var three = one
        (three.minimum, three.maximum, three.gamma) = ([-0.25, -0.5, 0], [1.25, 1.5, 2], [0.9, 1, 1.1])
        (three.offsetSDR, three.offsetHDR) = ([0, 0, 0], [0.01, 0.01, 0.01])
        let file =
            UltraHDRJPEG.assemble(
                primary: outline, gainMap: outline, gainMapXMP: one.xmp, gainMapISO21496: one.iso21496)
            ?? outline
        return [Array(file.dropFirst(2)), Array(one.xmp.utf8), Array(three.xmp.utf8), one.iso21496, three.iso21496]
    }()

    /// Big-endian EXIF (IFD0: Make, the Exif IFD; the Exif IFD: the MakerNote), its Apple
    /// MakerNote holding MakerNoteVersion and ContentIdentifier.
    private static let appleEXIF: [UInt8] = {
        let identifier = Array("5C1E9B0A-7D6E-4F1A-9E44-1D2C3B4A5F60\0".utf8)
        let makerNote =
            Array("Apple iOS\0".utf8) + [0, 1] + Array("MM".utf8) + [0, 2] + [0, 1, 0, 9, 0, 0, 0, 1, 0, 0, 0, 14]
            + [0, 0x11, 0, 2, 0, 0, 0, UInt8(identifier.count), 0, 0, 0, 44] + [0, 0, 0, 0] + identifier
        return Array("MM".utf8) + [0, 42, 0, 0, 0, 8] + [0, 2] + [0x01, 0x0F, 0, 2, 0, 0, 0, 6, 0, 0, 0, 38]
            + [0x87, 0x69, 0, 4, 0, 0, 0, 1, 0, 0, 0, 44] + [0, 0, 0, 0] + Array("Apple\0".utf8)
            + [0, 1] + [0x92, 0x7C, 0, 7, 0, 0, 0, UInt8(makerNote.count), 0, 0, 0, 62] + [0, 0, 0, 0] + makerNote
    }()
    private static let makerNoteOffset = 62

    private static let motionPhotoPackets = [
        #"<rdf:Description xmlns:GCamera="http://ns.google.com/photos/1.0/camera/" GCamera:MotionPhoto="1">"#
            + #"<Container:Directory><rdf:Seq><rdf:li><Container:Item Item:Semantic="MotionPhoto" Item:Length="80"/>"#
            + "</rdf:li></rdf:Seq></Container:Directory></rdf:Description>",
        "<GCamera:MotionPhoto>1</GCamera:MotionPhoto><Container:Item><Item:Semantic>MotionPhoto</Item:Semantic>"
            + "<Item:Length>64</Item:Length></Container:Item>",
        #"<x GCamera:MicroVideo="1" GCamera:MicroVideoOffset="40"/>"#,
    ]

    private static let subtypePackets = [
        #"<rdf:Description xmlns:GPano="http://ns.google.com/photos/1.0/panorama/" GPano:ProjectionType="equirectangular""#
            + #" xmlns:GCamera="http://ns.google.com/photos/1.0/camera/" GCamera:BurstID="b9b16484" GCamera:BurstPrimary="1">"#,
        "<GDepth:Format>RangeInverse</GDepth:Format><hdrgm:Version>1.0</hdrgm:Version>",
    ]

    /// A HEIF `meta` box (after the `ftyp` the check puts first): `pitm` naming item 1, and an
    /// `iprp` whose `ipco` holds a PQ `nclx` colour and a depth `auxC`, the colour associated
    /// with item 1 by `ipma`.
    private static let heifMeta: [UInt8] = box(
        "meta",
        [0, 0, 0, 0] + box("pitm", [0, 0, 0, 0, 0, 1])
            + box(
                "iprp",
                box(
                    "ipco",
                    box("colr", Array("nclx".utf8) + [0, 9, 0, 16, 0, 9, 0])
                        + box("auxC", [0, 0, 0, 0] + Array("urn:mpeg:hevc:2015:auxid:2\0".utf8)))
                    + box("ipma", [0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 1, 0x81])))

    /// An MP4's skeleton: `ftyp`, then `moov` with a version-0 `mvhd` of 3 s (timescale 1000).
    private static let movie: [UInt8] =
        box("ftyp", Array("isom".utf8) + [0, 0, 2, 0])
        + box("moov", box("mvhd", [0, 0, 0, 0] + [0, 0, 0, 0, 0, 0, 0, 0] + [0, 0, 0x03, 0xE8, 0, 0, 0x0B, 0xB8]))

    private static func box(_ type: String, _ contents: [UInt8]) -> [UInt8] {
        let size = contents.count + 8
        return [UInt8(size >> 24 & 0xFF), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)]
            + Array(type.utf8) + contents
    }

    /// The ICC profile libvips ships as `name` ("srgb", "p3", "cmyk"), as a photo would embed it:
    /// what a one-pixel image carries after a transform to it.
    private static func profile(_ name: String) -> [UInt8]? {
        guard (try? VipsRuntime.ensureStarted()) != nil else { return nil }
        let pixel: [UInt8] = [200, 40, 40]
        guard let opened = thumbs_vips_image_from_rgb(pixel, 1, 1) else { return nil }
        let image = VipsImageHandle(opened)
        var converted: UnsafeMutablePointer<VipsImage>?
        guard thumbs_vips_icc_transform(image.pointer, &converted, name) == 0, let converted else { return nil }
        return VipsImageHandle(converted).blob("icc-profile-data")
    }

    /// A failure entry of the desktop's cache, as Thumbs writes it.
    private static func desktopThumbnails() -> [[UInt8]] {
        let folder = FileManager.default.temporaryDirectory.path + "/thumbs-fuzz-desktop-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        guard let uri = FileURI(path: "/p/café a.jpg") else { return [] }
        let cache = DesktopThumbnailCache(folder: folder)
        let source = ThumbnailSource(uri: uri, modificationTime: 1_700_000_000, fileSize: 1234)
        guard (try? cache.writeFailure(of: source, damaged: false)) != nil,
            let entry = FileManager.default.contents(atPath: cache.failurePath(of: uri))
        else { return [] }
        return [Array(entry)]
    }

    /// The data file of a small cache with an entry in every table, as the store writes it.
    private static func cacheFile() -> [UInt8]? {
        let folder = FileManager.default.temporaryDirectory.path + "/thumbs-fuzz-seed-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let written = DispatchSemaphore(value: 0)
        // The store's writes are async; the program's main is not, and may wait on its thread.
        Task {
            defer { written.signal() }
            guard let store = try? ThumbnailStore(configuration: StoreConfiguration(path: folder)) else { return }
            let key = ThumbnailKey(assetID: "0123456789abcdef", fingerprint: fingerprint, rendition: renditions[0])
            let thumbnail = Thumbnail(
                bytes: [0xFF, 0xD8, 0xFF, 0xD9], pixelSize: PixelSize(width: 256, height: 171), format: .jpeg)
            _ = try? await store.putThumbnails([.init(key: key, thumbnail: thumbnail)])
            try? await store.putMetadata([.init(assetID: key.assetID, metadata: metadata[0])])
            try? await store.recordFailures([
                .init(
                    assetID: "fedcba9876543210", fingerprint: fingerprint,
                    failure: FailureRecord(kind: .truncated, message: "truncated", failedAt: created))
            ])
            try? await store.saveCursor(snapshot.cursorRecord, named: "library")
            _ = try? store.thumbnail(for: key)
            try? await store.flushAccessTimes()
        }
        written.wait()
        return FileManager.default.contents(atPath: folder + "/data.mdb").map { Array($0) }
    }

    /// What each media type opens with (the sniffer reads no further than 64 bytes), one byte
    /// per character: "\u{89}" is the byte 0x89, not its UTF-8 encoding.
    private static let magicNumbers = [
        "\u{89}PNG\r\n\u{1A}\n", "GIF89a", "RIFF\0\0\0\0WEBPVP8 ", "II*\0\u{8}\0\0\0CR", "II*\0\u{8}\0\0\0",
        "MM\0*", "IIRO", "IIU\0", "FUJIFILMCCD-RAW", "\u{1A}E\u{DF}\u{A3}webm",
        "\0\0\0\u{18}ftypheic\0\0\0\0mif1heic", "\0\0\0\u{1C}ftypavif\0\0\0\0avifmif1miaf",
        "\0\0\0\u{18}ftypisom\0\0\0\0isommp41", "\0\0\0\u{14}ftypqt  \0\0\0\0qt  ",
        "\0\0\0\u{18}ftypcrx \0\0\0\u{1}crx ",
        "\0\0\0\u{8}moov", "\0\0\0\u{1C}ftypavis\0\0\0\0avifavismsf1", "\u{FF}\n\u{F}\u{7}",
        "\0\0\0\u{C}JXL \r\n\u{87}\n\0\0\0\u{14}ftypjxl \0\0\0\0jxl ",
    ]

    private static let created = Date(timeIntervalSince1970: 1_645_012_541)
    private static let fingerprint = FileFingerprint(
        size: 2_239_703, modificationTimeNanoseconds: 1_645_012_541_000_000_001)

    private static let renditions = [
        RenditionSpec(size: PixelSize(width: 256, height: 256), contentMode: .aspectFill, quality: 80),
        RenditionSpec(size: PixelSize(width: 1024, height: 1024), contentMode: .aspectFit, quality: 85),
        RenditionSpec(size: PixelSize(width: 16_384, height: 1), format: .webp, quality: 100),
        RenditionSpec(size: PixelSize(width: 64, height: 48), format: .png, allowsUpscaling: true),
    ]

    private static let metadata = [
        withPlaceholder(
            AssetMetadata(
                ImageProperties(
                    mediaType: .jpeg, pixelSize: PixelSize(width: 3072, height: 2304), exifOrientation: 6,
                    captureDate: CaptureDate(exif: "2022:02:16 12:55:41", offset: "+01:00"), cameraMake: "Canon",
                    cameraModel: "Canon PowerShot SD750", embeddedPreviewSize: PixelSize(width: 160, height: 120),
                    fingerprint: fingerprint)), "IQcGXYJ/OHdXR6d3d3p3d3B3197A"),
        // With alpha: a header byte more, and alpha terms after the others.
        withPlaceholder(AssetMetadata(fingerprint: fingerprint, mediaType: .png), alphaPlaceholder),
        AssetMetadata(
            ImageProperties(
                mediaType: .gif, pixelSize: PixelSize(width: 10, height: 10), pageCount: 12, fingerprint: fingerprint)),
        AssetMetadata(fingerprint: fingerprint, mediaType: .quickTime),
    ]

    private static func withPlaceholder(_ metadata: AssetMetadata, _ base64: String) -> AssetMetadata {
        var metadata = metadata
        metadata.placeholder = ThumbHash(base64: base64)
        return metadata
    }

    /// The hash of a 4 × 4 image whose left half is transparent.
    private static let alphaPlaceholder = ThumbHash(
        rgba: (0..<16).flatMap { [200, 40, 40, $0 % 4 < 2 ? 0 : 255] }, width: 4, height: 4
    ).base64

    private static func thumbnailRecord(_ format: ThumbnailFormat) -> [UInt8] {
        let stored = StoredThumbnail(
            thumbnail: Thumbnail(
                bytes: [0xFF, 0xD8, 0xFF, 0xD9], pixelSize: PixelSize(width: 256, height: 171), format: format),
            createdAt: created)
        var record = [UInt8](repeating: 0, count: stored.encodedCount)
        record.withUnsafeMutableBytes { stored.encode(into: $0) }
        return record
    }

    private static let snapshot = FetchResult(
        assets: metadata.enumerated().map { index, metadata in
            var asset = Asset(
                root: index == 0 ? "/photos" : "/more photos", relativePath: "2019-trip/IMG_\(index).JPG",
                mediaType: metadata.mediaType, fingerprint: metadata.fingerprint, properties: metadata.properties)
            asset.placeholder = metadata.placeholder
            return asset
        })
}
