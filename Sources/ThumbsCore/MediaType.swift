import ThumbsSupport

/// What a file holds, decided by its first bytes, never by its name.
///
/// ```swift
/// MediaType(sniffing: [0xFF, 0xD8, 0xFF, 0xE0]) // .jpeg
/// ```
public enum MediaType: String, Sendable, Hashable, Codable, CaseIterable {
    case jpeg, png, webp, gif, tiff, heif, avif
    /// JPEG XL, as a bare codestream or in its ISO BMFF container.
    case jpegXL = "jxl"
    case mp4, quickTime = "quicktime", matroska, webm, avi
    /// A camera's raw sensor data (CR2, CR3, NEF, ARW, DNG, ORF, RW2, RAF, CRW…). Most are TIFF
    /// inside, but libvips would read only their small first IFD, so LibRaw reads them.
    case cameraRaw = "raw"
    /// Anything else: text, archives, formats Thumbs does not render.
    case unsupported

    /// How many leading bytes ``init(sniffing:fileName:)`` looks at.
    public static let sniffLength = 64

    public var isImage: Bool {
        switch self {
        case .jpeg, .png, .webp, .gif, .tiff, .heif, .avif, .jpegXL: true
        default: false
        }
    }

    public var isVideo: Bool {
        switch self {
        case .mp4, .quickTime, .matroska, .webm, .avi: true
        default: false
        }
    }

    /// Whether a library lists files of this type as assets, with thumbnails: images, camera
    /// RAW and videos.
    public var isAsset: Bool { isImage || isVideo || self == .cameraRaw }

    /// The MIME type of such a file, as shared-mime-info names it: what a file manager shows,
    /// and a thumbnail's `Content-Type`. For camera RAW, the generic one (each camera's own is
    /// told by the file's extension); nil for an unsupported file.
    public var mimeType: String? {
        switch self {
        case .jpeg, .png, .webp, .gif, .tiff, .heif, .avif, .jpegXL: "image/\(rawValue)"
        case .mp4: "video/mp4"
        case .quickTime: "video/quicktime"
        case .matroska: "video/x-matroska"
        case .webm: "video/webm"
        case .avi: "video/x-msvideo"
        case .cameraRaw: "image/x-dcraw"
        case .unsupported: nil
        }
    }

    /// Classifies a file from its leading bytes (``sniffLength`` is enough). The name only
    /// tells raw formats from plain TIFF when the content is the same TIFF header.
    public init(sniffing bytes: [UInt8], fileName: String = "") {
        let type = Self.classify(bytes)
        let suffix = fileName.split(separator: ".").last.map { $0.lowercased() } ?? ""
        self = type == .tiff && Self.tiffBasedRawExtensions.contains(suffix) ? .cameraRaw : type
    }

    private static let tiffBasedRawExtensions: Set = [
        "nef", "nrw", "arw", "srf", "sr2", "dng", "pef", "erf", "3fr", "mef", "mos", "kdc", "dcr",
        "iiq", "rwl", "srw", "raw", "cr2", "gpr",
    ]

    private static func classify(_ b: [UInt8]) -> MediaType {
        func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            b.count >= offset + prefix.count && Array(b[offset..<offset + prefix.count]) == prefix
        }
        // Only SOI: what follows it is not always a marker, and libjpeg copes with the garbage.
        if starts([0xFF, 0xD8]) { return .jpeg }
        // JPEG XL: its bare codestream, or the signature box of its container.
        if starts([0xFF, 0x0A]) { return .jpegXL }
        if starts([0x00, 0x00, 0x00, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A]) { return .jpegXL }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return .gif }
        if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) { return .webp }
        if starts(Array("RIFF".utf8)) && starts(Array("AVI ".utf8), at: 8) { return .avi }
        // Canon's CIFF (CRW): a little-endian heap whose signature follows the header length.
        if starts([0x49, 0x49, 0x1A, 0x00, 0x00, 0x00]) && starts(Array("HEAPCCDR".utf8), at: 6) { return .cameraRaw }
        if starts([0x49, 0x49, 0x2A, 0x00]) && starts(Array("CR".utf8), at: 8) { return .cameraRaw }  // CR2
        if starts(Array("IIRO".utf8)) || starts(Array("IIRS".utf8)) || starts(Array("MMOR".utf8))
            || starts([0x49, 0x49, 0x55, 0x00]) || starts(Array("FUJIFILMCCD-RAW".utf8))
            || starts(Array("FOVb".utf8))
        {
            return .cameraRaw  // ORF, RW2, RAF, X3F
        }
        if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A])
            || starts([0x49, 0x49, 0x2B, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2B])
        {
            return .tiff
        }
        if starts([0x1A, 0x45, 0xDF, 0xA3]) {
            return b.containsSubsequence(Array("webm".utf8)) ? .webm : .matroska
        }
        if starts(Array("ftyp".utf8), at: 4) { return classifyISOBaseMedia(b) }
        // QuickTime files written before `ftyp` existed open with one of these atoms.
        for atom in ["moov", "mdat", "wide", "free", "pnot"] where starts(Array(atom.utf8), at: 4) {
            return .quickTime
        }
        return .unsupported
    }

    /// An ISO base media file (HEIF, AVIF, MP4, MOV): its major brand, then the compatible brands.
    private static func classifyISOBaseMedia(_ b: [UInt8]) -> MediaType {
        let boxSize = b.count >= 4 ? Int(b[0]) << 24 | Int(b[1]) << 16 | Int(b[2]) << 8 | Int(b[3]) : 0
        let end = min(b.count, max(boxSize, 16))
        var brands: [String] = []
        var offset = 8
        while offset + 4 <= end {
            if offset != 12 {  // bytes 12..<16 are the minor version, not a brand
                brands.append(String(decoding: b[offset..<offset + 4], as: UTF8.self))
            }
            offset += 4
        }
        let heif: Set = ["heic", "heix", "hevc", "hevx", "heim", "heis", "hevm", "hevs"]
        let avif: Set = ["avif", "avis"]
        let quickTime: Set = ["qt  "]
        if brands.first == "crx " { return .cameraRaw }  // CR3
        let mp4: Set = [
            "isom", "iso2", "iso4", "iso5", "iso6", "mp41", "mp42", "avc1", "M4V ",
            "M4VH", "M4VP", "M4A ", "dash", "3gp4", "3gp5", "3gp6", "3g2a", "MSNV",
        ]
        // The first brand recognised decides, the major brand first. The generic image brands
        // ("mif1", "msf1") only say "some HEIF", so they count when nothing more specific is listed.
        for brand in brands {
            if avif.contains(brand) { return .avif }
            if heif.contains(brand) { return .heif }
            if quickTime.contains(brand) { return .quickTime }
            if mp4.contains(brand) { return .mp4 }
        }
        return brands.contains("mif1") || brands.contains("msf1") ? .heif : .unsupported
    }
}

extension Array where Element == UInt8 {
    fileprivate func containsSubsequence(_ needle: [UInt8]) -> Bool {
        guard needle.count <= count else { return false }
        return (0...(count - needle.count)).contains { Array(self[$0..<$0 + needle.count]) == needle }
    }
}
