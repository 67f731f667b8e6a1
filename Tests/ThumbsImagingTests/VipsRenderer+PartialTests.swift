import CVips
import CVipsShim
import Foundation
import Testing
import ThumbsCore
import ThumbsCoreTestSupport
@testable import ThumbsImaging
import ThumbsTestSupport
import ThumbsSamples

/// Files whose decode ends early: rendered as far as they decoded, and marked partial, once
/// they have gone unmodified for `FileFingerprint.settlingTime`; failing as before while
/// they may still be being copied in (dated ahead of the clock here, so that however long a
/// loaded machine takes to reach the render, the file counts as being written).
@Suite struct VipsRendererPartialTests {
    let renderer = VipsRenderer()
    let folder = TemporaryFolder()
    let fit = RenditionSpec(size: PixelSize(width: 320, height: 320), contentMode: .aspectFit, format: .png)

    /// Sets the modification time of the file at `path` an hour back: a file long settled.
    static func settle(_ path: String) throws {
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: path)
    }

    /// The first half of `bytes` written to `name`, as a copy under way.
    func cut(_ bytes: [UInt8], to name: String) throws -> String {
        let path = try folder.write(Array(bytes.prefix(bytes.count / 2)), to: name)
        try FileAge.markBeingWritten(path)
        return path
    }

    /// `image` as a PNG written without compression: its rows in many IDAT chunks, so that the
    /// first half of the file holds whole rows of the picture's top.
    static func uncompressedPNG(_ image: SyntheticImage) throws -> [UInt8] {
        let png = try image.encoded(as: .png)
        return try VipsCallGate.run { () throws(ImagingError) -> [UInt8] in
            guard let opened = png.withUnsafeBytes({ thumbs_vips_open_buffer($0.baseAddress, $0.count) }) else {
                throw .corrupt(VipsError.takeMessage())
            }
            let decoded = VipsImageHandle(opened)
            var buffer: UnsafeMutableRawPointer?
            var length = 0
            guard thumbs_vips_pngsave_buffer(decoded.pointer, &buffer, &length, 0, 1) == 0, let buffer else {
                throw .encodingFailed(VipsError.takeMessage())
            }
            defer { g_free(buffer) }
            return Array(UnsafeRawBufferPointer(start: buffer, count: length))
        }
    }

    /// A copy of the shared file at `relativePath`, as a copy under way.
    func copy(shared relativePath: String) throws -> String {
        let bytes = try Data(contentsOf: SharedPhotos.root.appendingPathComponent(relativePath))
        let path = try folder.write(Array(bytes), to: URL(fileURLWithPath: relativePath).lastPathComponent)
        try FileAge.markBeingWritten(path)
        return path
    }

    /// The file at `path` being written fails as one of `kinds`; settled, it renders a partial
    /// thumbnail of the whole picture's size (`upright`, as displayed).
    func expectPartialWhenSettled(
        _ path: String, upright: PixelSize, failingAs kinds: Set<ImagingError.Kind>
    ) throws -> Thumbnail {
        let error = try #require(throws: ImagingError.self) { try renderer.render(path, spec: fit) }
        #expect(kinds.contains(error.kind), "being written: \(error)")
        try FileAge.settle(path)
        let thumbnail = try renderer.render(path, spec: fit)
        #expect(thumbnail.isPartial)
        #expect(thumbnail.pixelSize == RenditionGeometry.outputSize(source: upright, spec: fit))
        return thumbnail
    }

    static let synthetic = PixelSize(width: 600, height: 400)

    @Test func aTruncatedPNGRendersItsTopWhenSettled() throws {
        let path = try cut(try Self.uncompressedPNG(SyntheticImage(width: 600, height: 400)), to: "cut.png")
        let thumbnail = try expectPartialWhenSettled(path, upright: Self.synthetic, failingAs: [.truncated])
        let top = try DecodedPixels(thumbnail).colour(atFractionX: 0.2, y: 0.2)
        #expect(top.r > 150 && top.g < 110, "the top left decoded red, is \(top)")
    }

    @Test(.enabled(if: GeneratedMedia.hasVips, GeneratedMedia.vipsGIFSkipReason))
    func aTruncatedGIFRendersItsTopWhenSettled() throws {
        let source = try folder.write(
            try Self.uncompressedPNG(SyntheticImage(width: 600, height: 400)), to: "whole.png")
        let whole = folder.path + "/whole.gif"
        try GeneratedMedia.gif(at: whole, from: source)
        let path = try cut(Array(try Data(contentsOf: URL(fileURLWithPath: whole))), to: "cut.gif")
        let thumbnail = try expectPartialWhenSettled(path, upright: Self.synthetic, failingAs: [.truncated, .corrupt])
        let top = try DecodedPixels(thumbnail).colour(atFractionX: 0.2, y: 0.2)
        #expect(top.r > 150 && top.g < 110, "the top left decoded red, is \(top)")
    }

    @Test func aTruncatedJPEGRendersItsTopWhenSettled() throws {
        let path = try cut(try SyntheticImage(width: 600, height: 400).encoded(as: .jpeg), to: "cut.jpg")
        let thumbnail = try expectPartialWhenSettled(path, upright: Self.synthetic, failingAs: [.truncated])
        let top = try DecodedPixels(thumbnail).colour(atFractionX: 0.2, y: 0.2)
        #expect(top.r > 150 && top.g < 110, "the top left decoded red, is \(top)")
    }

    @Test func severalRenditionsOfASettledDamagedFileAreAllPartial() throws {
        let path = try cut(try Self.uncompressedPNG(SyntheticImage(width: 600, height: 400)), to: "cut.png")
        try FileAge.settle(path)
        let specs = [fit, RenditionSpec(size: PixelSize(width: 64, height: 64), contentMode: .aspectFill)]
        let thumbnails = try renderer.render(path, specs: specs)
        #expect(thumbnails.map(\.isPartial) == [true, true])
        #expect(thumbnails[1].placeholder != nil, "the smallest carries the placeholder, as for any render")
    }

    @Test func aWholeFileIsNotPartial() throws {
        let path = try folder.write(try SyntheticImage(width: 600, height: 400).encoded(as: .png), to: "whole.png")
        try FileAge.settle(path)
        #expect(try renderer.render(path, spec: fit).isPartial == false)
    }

    @Test func aFileCutBeforeAnyPixelStillFails() throws {
        // The JPEG's headers up to its first scan's data: the decoder's grey fill alone.
        let jpeg = try SyntheticImage(width: 600, height: 400).encoded(as: .jpeg)
        let scan = try #require(jpeg.indices.dropLast().first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xDA })
        let headers = try folder.write(
            Array(jpeg.prefix(scan + 2 + Int(jpeg[scan + 2]) << 8 + Int(jpeg[scan + 3]))), to: "headers.jpg")
        // A PNG compressed into one IDAT chunk, cut in it: no row decodes.
        let png = try SyntheticImage(width: 600, height: 400).encoded(as: .png)
        let oneChunk = try cut(png, to: "one-chunk.png")
        for path in [headers, oneChunk] {
            try FileAge.settle(path)
            let error = try #require(throws: ImagingError.self) { try renderer.render(path, spec: fit) }
            #expect(error.kind == .truncated, "\(path): \(error)")
        }
    }

    @Test(
        .enabled(if: SharedPhotos.isPresent, SharedPhotos.skipReason),
        arguments: [
            ("broken/corrupted.jpg", PixelSize(width: 3648, height: 2736)),
            ("broken/IMG_3704_truncated.jpg", PixelSize(width: 3072, height: 2304)),
            ("broken/weld_16bit_truncated.png", PixelSize(width: 1024, height: 684)),
        ])
    func damagedRealPhotosRenderPartiallyWhenSettled(relativePath: String, upright: PixelSize) throws {
        let path = try copy(shared: relativePath)
        _ = try expectPartialWhenSettled(path, upright: upright, failingAs: [.truncated, .corrupt])
    }

    @Test(.enabled(if: SharedPhotos.isPresent, SharedPhotos.skipReason))
    func aTruncatedHEIFFailsEvenSettled() throws {
        let path = try copy(shared: "broken/HMD_Nokia_8.3_5G_truncated.heif")
        try FileAge.settle(path)
        let error = try #require(throws: ImagingError.self) { try renderer.render(path, spec: fit) }
        #expect([.truncated, .corrupt].contains(error.kind), "\(error)")
    }
}
