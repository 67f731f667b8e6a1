import Testing
import ThumbsCore

@Suite struct MediaTypeTests {
    private func ftyp(_ brands: String...) -> [UInt8] {
        let payload = Array(brands.joined().utf8)
        let size = 8 + payload.count
        return [0, 0, 0, UInt8(size)] + Array("ftyp".utf8) + payload
    }

    @Test func recognisesImageSignatures() {
        #expect(MediaType(sniffing: [0xFF, 0xD8, 0xFF, 0xE1]) == .jpeg)
        #expect(MediaType(sniffing: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) == .png)
        #expect(MediaType(sniffing: Array("GIF89a".utf8)) == .gif)
        #expect(MediaType(sniffing: Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8)) == .webp)
        #expect(MediaType(sniffing: [0x49, 0x49, 0x2A, 0x00]) == .tiff)
        #expect(MediaType(sniffing: [0x4D, 0x4D, 0x00, 0x2A]) == .tiff)
    }

    @Test func tellsHEIFFromAVIFFromVideoByBrand() {
        #expect(MediaType(sniffing: ftyp("heic", "\0\0\0\0", "mif1", "heic")) == .heif)
        #expect(MediaType(sniffing: ftyp("mif1", "\0\0\0\0", "mif1", "heic")) == .heif)
        #expect(MediaType(sniffing: ftyp("avif", "\0\0\0\0", "avif", "mif1")) == .avif)
        #expect(MediaType(sniffing: ftyp("mif1", "\0\0\0\0", "avif", "mif1", "miaf")) == .avif)
        #expect(MediaType(sniffing: ftyp("isom", "\0\0\u{2}\0", "isom", "iso2", "mp41")) == .mp4)
        #expect(MediaType(sniffing: ftyp("qt  ", "\0\0\0\0", "qt  ")) == .quickTime)
        #expect(MediaType(sniffing: ftyp("M4V ", "\0\0\0\0", "M4V ")) == .mp4)
    }

    /// JPEG XL as a bare codestream and in its container, whose signature box comes first.
    @Test func recognisesJPEGXLInBothForms() {
        #expect(MediaType(sniffing: [0xFF, 0x0A, 0x0F, 0x07, 0x01]) == .jpegXL)
        let signature: [UInt8] = [0x00, 0x00, 0x00, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A]
        #expect(MediaType(sniffing: signature + [0, 0, 0, 20] + Array("ftypjxl ".utf8)) == .jpegXL)
        #expect(MediaType.jpegXL.isImage && MediaType.jpegXL.isAsset)
        #expect(MediaType.jpegXL.mimeType == "image/jxl" && MediaType(rawValue: "jxl") == .jpegXL)
        // A JPEG's start of image is not JPEG XL's.
        #expect(MediaType(sniffing: [0xFF, 0xD8, 0xFF, 0x0A]) == .jpeg)
    }

    /// An AVIF image sequence (major brand `avis`) is an AVIF, as a still is (its handler tells
    /// them apart).
    @Test func aSequenceIsAnAVIF() {
        #expect(MediaType(sniffing: ftyp("avis", "\0\0\0\0", "avif", "avis", "msf1", "miaf")) == .avif)
        #expect(MediaType(sniffing: ftyp("avif", "\0\0\0\0", "avif", "avis", "mif1")) == .avif)
    }

    @Test func recognisesMatroskaAndWebM() {
        let header: [UInt8] = [0x1A, 0x45, 0xDF, 0xA3, 0x9F, 0x42, 0x86, 0x81, 0x01, 0x42, 0x82, 0x84]
        #expect(MediaType(sniffing: header + Array("webm".utf8)) == .webm)
        #expect(MediaType(sniffing: header + Array("matroska".utf8)) == .matroska)
        #expect(MediaType.webm.isVideo && !MediaType.webm.isImage)
    }

    /// A file's MIME type comes from its type, and a thumbnail's from its format's type.
    @Test func mimeTypesFollowTheType() {
        #expect(MediaType.jpeg.mimeType == "image/jpeg" && MediaType.heif.mimeType == "image/heif")
        #expect(MediaType.quickTime.mimeType == "video/quicktime" && MediaType.avi.mimeType == "video/x-msvideo")
        #expect(MediaType.allCases.filter(\.isAsset).allSatisfy { $0.mimeType != nil })
        #expect(MediaType.unsupported.mimeType == nil)
        #expect(ThumbnailFormat.allCases.map(\.mimeType) == ["image/jpeg", "image/webp", "image/png"])
    }

    @Test func textAndEmptyAreUnsupported() {
        #expect(MediaType(sniffing: Array("Hello, this is text".utf8)) == .unsupported)
        #expect(MediaType(sniffing: []) == .unsupported)
    }
}
