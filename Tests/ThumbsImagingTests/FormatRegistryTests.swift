import Foundation
import Testing
import ThumbsCore
import ThumbsCoreTestSupport
@testable import ThumbsImaging
import ThumbsRendering
import ThumbsSamples
import ThumbsTestSupport

/// Each file goes to the handler of its format, which names the libraries it is decoded with.
@Suite struct FormatRegistryTests {
    let folder = TemporaryFolder()

    /// `bytes` written to a file named `name`, opened as a render opens it.
    private func source(_ bytes: [UInt8], named name: String) throws -> ImageSource {
        try ImageSource(opened: ImageLocation(path: folder.write(bytes, to: name)))
    }

    /// An ISO base media file's `ftyp` box of `brands` (the major brand, the minor version,
    /// then the compatible brands), with a little padding after it.
    private func ftyp(_ brands: String...) -> [UInt8] {
        let payload = Array(brands.joined().utf8)
        return [0, 0, 0, UInt8(8 + payload.count)] + Array("ftyp".utf8) + payload + [UInt8](repeating: 0, count: 16)
    }

    @Test func eachFormatHasItsHandler() throws {
        let registry = FormatRegistry.standard
        let jpeg = try SyntheticImage(width: 32, height: 24).encoded(as: .jpeg)
        let png = try SyntheticImage(width: 32, height: 24).encoded(as: .png)
        #expect(try registry.handler(for: source(jpeg, named: "a.jpg")).name == "JPEG")
        #expect(try registry.handler(for: source(png, named: "a.png")).name == "PNG")
        #expect(try registry.handler(for: source(Array("\0\0\0\u{18}ftypmp42".utf8), named: "a.mp4")).name == "video")
        #expect(try registry.handler(for: source([0x49, 0x49, 0x2A, 0, 8, 0], named: "a.nef")).name == "camera RAW")
    }

    /// An AVIF whose major brand is `avis` is a sequence, read by libavif; a still that lists
    /// `avis` among its compatible brands has a picture of its own, read by libheif.
    @Test func avifSequencesAndStillsGoToTheirOwnHandlers() throws {
        let registry = FormatRegistry.standard
        let sequence = try source(ftyp("avis", "\0\0\0\0", "avif", "avis", "msf1"), named: "s.avif")
        let still = try source(ftyp("avif", "\0\0\0\0", "avif", "avis", "mif1"), named: "t.avif")
        #expect(try registry.handler(for: sequence).name == "animated AVIF")
        #expect(try registry.handler(for: still).name == "HEIF and AVIF")
        #expect(registry.libraries(for: sequence) == [.libvips, .libavif, .ffmpeg])
        #expect(registry.libraries(for: still) == [.libvips, .libheif])
    }

    /// A HEIC whose boxes say libheif alone renders it needs libheif alone, FFmpeg's decoders
    /// included only for a worker's many files; libvips to be encoded as WebP.
    @Test(.enabled(if: SubtypeFiles.hasHeifEnc, SubtypeFiles.heifEncSkipReason))
    func aHEICNeedsLibheifAlone() throws {
        let png = try folder.write(try SyntheticImage(width: 64, height: 48).encoded(as: .png), to: "a.png")
        let encoded = try ThumbsProcess.run(["-o", folder.path + "/a.heic", png], executablePath: SubtypeFiles.heifEnc)
        try #require(encoded.status == 0, "heif-enc: \(encoded.standardError)")
        let heic = try ImageSource(opened: ImageLocation(path: folder.path + "/a.heic"))
        let registry = FormatRegistry.standard
        let box = PixelSize(width: 32, height: 32)
        #expect(registry.libraries(for: heic) == [.libheif])
        #expect(DecodingLibrary.forManyFiles(registry.libraries(for: heic)) == [.libheif, .ffmpeg])
        #expect(
            registry.libraries(for: heic, specs: [RenditionSpec(size: box, format: .webp)]) == [.libvips, .libheif])
    }

    /// A render worker opens what a file's handler needs before it confines itself; libvips
    /// alone for a file no handler reads (or none sniffed), which it then refuses.
    @Test func librariesAreThoseOfTheHandler() throws {
        let registry = FormatRegistry.standard
        let jxl = try source([0xFF, 0x0A, 0, 0], named: "a.jxl")
        #expect(registry.libraries(for: jxl) == [.libvips, .libjxl])
        #expect(registry.libraries(for: try source(Array("hello".utf8), named: "a.txt")) == [.libvips])
        #expect(registry.libraries(for: nil) == [.libvips])
    }

    /// A JPEG's or an 8-bit PNG's renditions need libvips only to be encoded as WebP or enlarged;
    /// a PNG of 16-bit grey with alpha needs it to be decoded.
    @Test(arguments: [SyntheticImage.Container.jpeg, .png])
    func webPAndEnlargingNeedLibvips(container: SyntheticImage.Container) throws {
        let registry = FormatRegistry.standard
        let photo = try source(
            try SyntheticImage(width: 64, height: 48).encoded(as: container), named: "a.\(container.rawValue)")
        let box = PixelSize(width: 32, height: 32)
        #expect(registry.libraries(for: photo, specs: [RenditionSpec(size: box, format: .png)]) == [])
        #expect(registry.libraries(for: photo, specs: [RenditionSpec(size: box, format: .webp)]) == [.libvips])
        let enlarged = RenditionSpec(size: PixelSize(width: 640, height: 640), allowsUpscaling: true)
        #expect(registry.libraries(for: photo, specs: [enlarged]) == [.libvips])
        let alpha = try source(
            try SyntheticImage(width: 64, height: 48, pixels: .rgba).encoded(as: .png), named: "b.png")
        #expect(registry.libraries(for: alpha, specs: [RenditionSpec(size: box, format: .png)]) == [])
        let deep = try source(
            try SyntheticImage(width: 64, height: 48, pixels: .greyAlpha16).encoded(as: .png), named: "c.png")
        #expect(registry.libraries(for: deep, specs: [RenditionSpec(size: box, format: .png)]) == [.libvips])
    }

    @Test func aFileNoHandlerReadsIsUnsupported() throws {
        let text = try source(Array("hello".utf8), named: "notes.txt")
        let error = #expect(throws: ImagingError.self) { try FormatRegistry.standard.handler(for: text) }
        #expect(error?.kind == .unsupportedFormat)
    }

    /// A registry of other handlers is the renderer's: a handler put first takes the files it
    /// reads from the standard ones.
    @Test func aRendererUsesItsRegistry() throws {
        let png = try SyntheticImage(width: 40, height: 30).encoded(as: .png)
        let path = try folder.write(png, to: "a.png")
        let refusing = VipsRenderer(
            formats: FormatRegistry(handlers: [RefusingHandler()] + FormatRegistry.standard.handlers))
        #expect(throws: ImagingError.unsupportedFormat("refused")) { try refusing.probe(path) }
        #expect(try VipsRenderer().probe(path).pixelSize == PixelSize(width: 40, height: 30))
    }

    /// Every format's line of `thumbs version --libraries` names it once.
    @Test func everyHandlerDescribesItsDecoding() throws {
        let loaded = try DecoderLibraries.linked()
        let names = FormatRegistry.standard.handlers.map(\.name)
        #expect(Set(names).count == names.count)
        for handler in FormatRegistry.standard.handlers { #expect(!handler.decoding(with: loaded).isEmpty) }
    }
}

/// Reads PNGs and refuses each of them.
private struct RefusingHandler: FormatHandler {
    let name = "refusing"
    let libraries: Set<DecodingLibrary> = [.libvips]
    func reads(_ source: ImageSource) -> Bool { source.mediaType == .png }
    func decoding(with loaded: DecoderLibraries) -> String { "nothing" }
    func probe(_ source: ImageSource, engine: VipsRenderer) throws(ImagingError) -> ImageProperties {
        throw .unsupportedFormat("refused")
    }
    func render(_ source: ImageSource, specs: [RenditionSpec], engine: VipsRenderer) throws(ImagingError) -> [Thumbnail]
    {
        throw .unsupportedFormat("refused")
    }
    func render(
        _ source: ImageSource, spec: RenditionSpec, crop: NormalizedRect, engine: VipsRenderer
    ) throws(ImagingError) -> Thumbnail {
        throw .unsupportedFormat("refused")
    }
    func embeddedPreview(
        _ source: ImageSource, format: ThumbnailFormat, quality: Int, engine: VipsRenderer
    ) throws(ImagingError) -> Thumbnail? {
        nil
    }
}
