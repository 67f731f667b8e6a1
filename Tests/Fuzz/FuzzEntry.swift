import Foundation

/// The parsers of untrusted bytes, one per selector: an input's first byte (modulo the count)
/// picks the parser that gets the rest, so one target covers them all and a mutation of that
/// byte hands an interesting input to another parser. `scripts/fuzz` names its seed files with
/// these numbers.
enum FuzzedParser: UInt8, CaseIterable {
    /// `MediaType(sniffing:fileName:)`: a file's first bytes.
    case sniffing = 0
    /// `CaptureDate(exif:offset:)`: EXIF DateTimeOriginal, NUL, OffsetTimeOriginal.
    case captureDate = 1
    /// `ThumbsConfiguration` from JSON: config.json.
    case configuration = 2
    /// `RenditionSpec(storageKey:)`: the rendition part of a thumbnail key.
    case renditionKey = 3
    /// `AssetMetadata(decoding:)`: a metadata cache record.
    case metadataRecord = 4
    /// `FailureRecord(decoding:)`: a failure memo record.
    case failureRecord = 5
    /// `StoredThumbnail(decoding:)` and its header: a thumbnail record.
    case thumbnailRecord = 6
    /// `FetchResult(cursorRecord:)`: the library's snapshot in the cursors table.
    case cursorRecord = 7
    /// `LMDBFileCheck`: the cache's data file, read before LMDB maps it.
    case lmdbFile = 8
    /// `thumbs_icc_is_srgb`: a photo's embedded ICC profile.
    case iccProfile = 9
    /// `PNGText.fields(of:)` and `FileURI`: a thumbnail of the desktop's cache, which any
    /// program may have written.
    case desktopThumbnail = 10
    /// `AppleMakerNote(exif:)` and `(makerNote:)`: a photo's EXIF block, a MakerNote.
    case appleMakerNote = 11
    /// `MotionPhotoXMP`: a photo's XMP packet.
    case motionPhotoXMP = 12
    /// `ISOBox` and `EmbeddedMovie(in:)`: a HEIF file's or a motion photo's movie's boxes.
    case embeddedMovie = 13
    /// `MediaSubtypes(xmp:)` and `BurstMembership(xmp:)`: a photo's XMP packet.
    case subtypeXMP = 14
    /// `HEIFMetaBox(in:)`: a HEIF file's `meta` box.
    case heifMetaBox = 15
    /// `BurstMembership(fileName:)`: a frame's name.
    case burstFileName = 16
    /// `JPEGSegments(in:)` and `JPEGHeader(in:)`: a JPEG's header.
    case jpegSegments = 17
    /// `PNGHeader(in:)`: a PNG's chunk headers, read before confinement.
    case pngChunks = 18
    /// `thumbs_png_colour_profile`: a PNG's sRGB, gAMA and cHRM chunks, read in the worker.
    case pngColour = 19
    /// `thumbs_avif_probe` and `thumbs_avif_first_frame`: an animated AVIF, read by libavif.
    case avifSequence = 20
    /// `UltraHDRJPEG.gainMapRange(in:length:)`, `headroom(of:)`, `xmpPacket(in:)`,
    /// `GainMapMetadata(xmp:)` and `(iso21496:)`: an Ultra HDR JPEG, its MPF index and its gain
    /// map's metadata.
    case ultraHDR = 21

    init(selector: UInt8) {
        self = Self.allCases[Int(selector) % Self.allCases.count]
    }

    /// Runs the parser on `bytes`; a broken expectation stops the process, which libFuzzer
    /// reports as a crash with the input that caused it.
    func parse(_ bytes: UnsafeRawBufferPointer) {
        switch self {
        case .sniffing: FuzzChecks.sniffing(bytes)
        case .captureDate: FuzzChecks.captureDate(bytes)
        case .configuration: FuzzChecks.configuration(bytes)
        case .renditionKey: FuzzChecks.renditionKey(bytes)
        case .metadataRecord: FuzzChecks.metadataRecord(bytes)
        case .failureRecord: FuzzChecks.failureRecord(bytes)
        case .thumbnailRecord: FuzzChecks.thumbnailRecord(bytes)
        case .cursorRecord: FuzzChecks.cursorRecord(bytes)
        case .lmdbFile: FuzzChecks.lmdbFile(bytes)
        case .iccProfile: FuzzChecks.iccProfile(bytes)
        case .desktopThumbnail: FuzzChecks.desktopThumbnail(bytes)
        case .appleMakerNote: FuzzChecks.appleMakerNote(bytes)
        case .motionPhotoXMP: FuzzChecks.motionPhotoXMP(bytes)
        case .embeddedMovie: FuzzChecks.embeddedMovie(bytes)
        case .subtypeXMP: FuzzChecks.subtypeXMP(bytes)
        case .heifMetaBox: FuzzChecks.heifMetaBox(bytes)
        case .burstFileName: FuzzChecks.burstFileName(bytes)
        case .jpegSegments: FuzzChecks.jpegSegments(bytes)
        case .pngChunks: FuzzChecks.pngChunks(bytes)
        case .pngColour: FuzzChecks.pngColour(bytes)
        case .avifSequence: FuzzChecks.avifSequence(bytes)
        case .ultraHDR: FuzzChecks.ultraHDR(bytes)
        }
    }
}

/// libFuzzer's entry point: one input, any bytes, any length (zero too).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    guard let start, count > 0 else { return 0 }
    let input = UnsafeRawBufferPointer(start: start, count: count)
    // Rebased, not copied: a read past the end of the rest is a read past libFuzzer's
    // exactly-sized buffer, which AddressSanitizer reports.
    FuzzedParser(selector: input[0]).parse(UnsafeRawBufferPointer(rebasing: input[1...]))
    return 0
}
