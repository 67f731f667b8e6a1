import Foundation
import Testing
import ThumbsCore
import ThumbsCoreTestSupport
@testable import ThumbsImaging
import ThumbsRendering
import ThumbsSupport
import ThumbsTestSupport
import ThumbsSamples

/// Bad input of every kind gets a typed error, cheaply and without a crash.
@Suite struct ImagingErrorTests {
    let renderer = VipsRenderer()
    let folder = TemporaryFolder()
    let grid = RenditionSpec(size: PixelSize(width: 128, height: 128), contentMode: .aspectFill)

    private func kind(of path: String) -> ImagingError.Kind? {
        do throws(ImagingError) {
            _ = try renderer.render(path, spec: grid)
            return nil
        } catch {
            return error.kind
        }
    }

    @Test func emptyFile() throws {
        #expect(kind(of: try folder.write([], to: "empty.jpg")) == .emptyFile)
    }

    @Test func textWithAnImageName() throws {
        #expect(kind(of: try folder.write(Array("just some notes\n".utf8), to: "notes.jpg")) == .unsupportedFormat)
    }

    @Test func aVideoWithoutItsIndexIsTruncated() throws {
        // A file type box and nothing after it: the moov atom, written last, never came.
        let mp4: [UInt8] = [0, 0, 0, 20] + Array("ftypisom\0\0\u{2}\0isommp41".utf8)
        #expect(kind(of: try folder.write(mp4, to: "clip.mp4")) == .truncated)
    }

    @Test func missingFile() {
        #expect(kind(of: folder.path + "/nothing-here.jpg") == .unreadable)
    }

    @Test func folderInsteadOfFile() {
        #expect(kind(of: folder.path) == .unreadable)
    }

    @Test(arguments: [SyntheticImage.Container.jpeg, .png])
    func truncatedFile(container: SyntheticImage.Container) throws {
        let whole = try SyntheticImage(width: 800, height: 600).encoded(as: container)
        let path = try folder.write(Array(whole.prefix(whole.count / 2)), to: "half.\(container.rawValue)")
        try FileAge.markBeingWritten(path)  // a copy under way: no partial render
        #expect(kind(of: path) == .truncated)
    }

    @Test func corruptEntropyData() throws {
        var bytes = try SyntheticImage(width: 800, height: 600).encoded(as: .jpeg)
        // Overwrite the middle of the scan with marker bytes libjpeg cannot accept.
        for offset in stride(from: bytes.count / 2, to: bytes.count / 2 + 400, by: 2) {
            bytes[offset] = 0xFF
            bytes[offset + 1] = 0xD3
        }
        let path = try folder.write(bytes, to: "scrambled.jpg")
        try FileAge.markBeingWritten(path)  // a copy under way: no partial render
        let found = kind(of: path)
        #expect(found == .corrupt || found == nil, "damaged scan data is corrupt, or recovered by libjpeg")
    }

    @Test func decompressionBombIsRefusedFromTheHeader() throws {
        // A PNG header announcing 50,000 x 50,000 pixels with almost no data behind it.
        let path = try folder.write(PNGHeader.bomb(width: 50_000, height: 50_000), to: "bomb.png")
        let started = ContinuousClock.now
        #expect(kind(of: path) == .tooManyPixels)
        #expect(started.duration(to: .now) < .seconds(5), "refused before decoding")
        #expect(throws: ImagingError.tooManyPixels(width: 50_000, height: 50_000, limit: 100_000_000)) {
            try renderer.probe(path)
        }
    }

    @Test func pixelLimitIsConfigurable() throws {
        let path = try folder.write(try SyntheticImage(width: 400, height: 300).encoded(as: .jpeg), to: "small.jpg")
        let strict = VipsRenderer(pixelLimit: 100_000)
        #expect(throws: ImagingError.tooManyPixels(width: 400, height: 300, limit: 100_000)) {
            try strict.render(path, spec: grid)
        }
    }

    @Test func fileChangedAfterOpeningIsDetected() throws {
        let path = try folder.write(try SyntheticImage(width: 400, height: 300).encoded(as: .jpeg), to: "busy.jpg")
        let file = try ImageFile(ImageSource(ImageLocation(path: path)), pixelLimit: 100_000_000)
        try file.ensureUnchanged()
        try Data(try SyntheticImage(width: 410, height: 300).encoded(as: .jpeg)).write(to: URL(fileURLWithPath: path))
        #expect(throws: ImagingError.changedWhileRendering) { try file.ensureUnchanged() }
    }

    @Test func cameraRawIsRecognisedByContentOrName() throws {
        let cr2: [UInt8] =
            [0x49, 0x49, 0x2A, 0x00, 0x10, 0, 0, 0, 0x43, 0x52, 0x02, 0] + Array(repeating: 0, count: 52)
        #expect(MediaType(sniffing: cr2) == .cameraRaw)
        // NEF and DNG are plain TIFF inside: the name tells them apart.
        let tiff = try SyntheticImage(width: 64, height: 48).encoded(as: .tiff)
        #expect(MediaType(sniffing: Array(tiff.prefix(64)), fileName: "DSC_0001.NEF") == .cameraRaw)
        #expect(MediaType(sniffing: Array(tiff.prefix(64)), fileName: "scan.tif") == .tiff)
        // LibRaw reads it, and knows no camera of a TIFF without one.
        #expect(kind(of: try folder.write(tiff, to: "DSC_0001.nef")) == .unsupportedFormat)
    }

    @Test(arguments: [
        ("VipsJpeg: Premature end of input file", ImagingError.Kind.truncated),
        ("heif: Invalid input: Unexpected end of file: Extent in iloc box", .truncated),
        ("VipsJpeg: Bogus marker length", .corrupt),
        ("IHDR: CRC error", .corrupt),
        ("tiff2vips: subsampled images not supported", .unsupportedFormat),
        ("VipsForeignLoad: \"/photos/corrupt-but-fine/a.png\" is not a known file format", .unsupportedFormat),
        ("unable to open \"/photos/a.png\": Input/output error", .unreadable),
        ("out of memory -- size == 1GB", .unreadable),
    ])
    func libvipsMessagesBecomeKinds(message: String, kind: ImagingError.Kind) {
        #expect(ImageFile.decodeError(message, mediaType: .png, isMissingEndMarker: { false }).kind == kind)
    }

    @Test func onlyMachineFailuresAreTransient() {
        let transient = ImagingError.Kind.allCases.filter(\.isTransient)
        #expect(Set(transient) == [.unreadable, .changedWhileRendering, .libraryUnavailable])
    }

    @Test func stripShapedImagesWithUpscalingStayWithinTheLimit() throws {
        let path = try folder.write(try SyntheticImage(width: 4000, height: 2).encoded(as: .png), to: "strip.png")
        var fill = RenditionSpec(size: PixelSize(width: 256, height: 256), contentMode: .aspectFill, format: .png)
        fill.allowsUpscaling = true
        let fit = RenditionSpec(size: PixelSize(width: 64, height: 64), format: .png)
        let thumbnails = try VipsRenderer(pixelLimit: 10_000_000).render(path, specs: [fill, fit])
        #expect(thumbnails.map(\.pixelSize) == [PixelSize(width: 256, height: 256), PixelSize(width: 64, height: 1)])
    }

    @Test func everyKindDescribesItselfOnOneLine() {
        let errors: [ImagingError] = [
            .unsupportedFormat("not an image"), .emptyFile, .truncated("Premature end"), .corrupt("bad"),
            .tooManyPixels(width: 1, height: 2, limit: 1), .tooMuchMemory(needed: 3, budget: 2),
            .unreadable("No such file"),
            .changedWhileRendering, .encodingFailed("x"), .libraryUnavailable("y"), .noVideoStream,
            .decoderMissing("prores"), .timedOut(.seconds(30)), .crashed,
        ]
        #expect(Set(errors.map(\.kind)) == Set(ImagingError.Kind.allCases))
        for error in errors {
            #expect(!error.description.isEmpty && !error.description.contains("\n"))
        }
    }

    /// A report's line is "KIND: reason": the reason never says the kind again, in its words or
    /// its name, with libvips' message or without one.
    @Test func aFailureLineNamesItsKindOnce() {
        let errors: [ImagingError] = [
            .unsupportedFormat("a tiff variant libvips cannot read"), .emptyFile, .truncated(""),
            .truncated("Premature end of input file"), .corrupt(""), .corrupt("IHDR: CRC error"),
            .tooManyPixels(width: 50_000, height: 50_000, limit: 100_000_000),
            .tooMuchMemory(needed: 900 << 20, budget: 64 << 20), .unreadable(""), .unreadable("out of memory"),
            .changedWhileRendering, .encodingFailed(""), .encodingFailed("libjpeg failed"), .libraryUnavailable(""),
            .noVideoStream, .decoderMissing("prores"), .timedOut(.seconds(30)), .crashed,
        ]
        #expect(Set(errors.map(\.kind)) == Set(ImagingError.Kind.allCases))
        for error in errors {
            let kind = error.kind.rawValue
            let firstWord = String(kind.prefix { $0 != "-" })
            let reason = error.description.lowercased()
            #expect(!reason.isEmpty && !reason.hasPrefix(firstWord + " ") && !reason.hasPrefix(firstWord + ":"))
            #expect(!reason.contains(kind), "\(kind): \(error)")
        }
        #expect(
            "\(ImagingError.unreadable("out of memory").kind.rawValue): \(ImagingError.unreadable("out of memory"))"
                == "unreadable: out of memory")
    }
}

/// Minimal PNG files written byte by byte.
enum PNGHeader {
    /// Signature, an IHDR for an 8-bit RGB image of the given size, a tiny IDAT and IEND.
    static func bomb(width: UInt32, height: UInt32) -> [UInt8] {
        var ihdr: [UInt8] = []
        ihdr += bigEndian(width) + bigEndian(height) + [8, 2, 0, 0, 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
            + chunk("IHDR", ihdr)
            + chunk("IDAT", [0x78, 0x9C, 0x63, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01])
            + chunk("IEND", [])
    }

    private static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + body + bigEndian(crc32(body))
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
