import CVips
import Foundation
import Testing
import ThumbsCore
import ThumbsCoreTestSupport
@testable import ThumbsImaging
import ThumbsRendering
import ThumbsTestSupport
import ThumbsSamples

/// JPEG XL stills, read by libvips' `jxlload` from its module, loaded on the first one.
@Suite struct JpegXLRuntimeTests {
    let folder = TemporaryFolder()
    private static let grid = RenditionSpec(size: PixelSize(width: 128, height: 128), contentMode: .aspectFit)

    /// A photo-like PNG and the same picture as a lossless JPEG XL codestream and in JPEG XL's
    /// container (its signature and `ftyp` boxes, then the codestream in a `jxlc` box).
    private func jpegXL(name: String) throws -> (png: String, codestream: String, container: String) {
        try folder.write(SyntheticImage(width: 300, height: 200).encoded(as: .png), to: "\(name).png")
        let png = folder.path + "/\(name).png", codestream = folder.path + "/\(name).jxl"
        try GeneratedMedia.jpegXL(at: codestream, from: png)
        let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: codestream)))
        func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
            let size = UInt32(8 + payload.count)
            return [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: size >> $0) } + Array(type.utf8) + payload
        }
        let contained =
            box("JXL ", [0x0D, 0x0A, 0x87, 0x0A]) + box("ftyp", Array("jxl ".utf8) + [0, 0, 0, 0] + Array("jxl ".utf8))
            + box("jxlc", bytes)
        try folder.write(contained, to: "\(name)-boxed.jxl")
        return (png, codestream, folder.path + "/\(name)-boxed.jxl")
    }

    @Test func startingLoadsLibvipsJpegXLLoader() throws {
        try JpegXLRuntime.ensureStarted()
        #expect(JpegXLRuntime.isStarted && DecodingLibrary.libjxl.isOpen)
        #expect(vips_type_find("VipsForeignLoad", "jxlload_source") != 0)
    }

    /// Both forms render to the pixels of the picture they were made from (lossless).
    @Test(.enabled(if: GeneratedMedia.hasVips, GeneratedMedia.vipsSkipReason))
    func bothFormsRenderAsTheirSourceDoes() throws {
        let made = try jpegXL(name: "photo")
        let renderer = VipsRenderer()
        let reference = try DecodedPixels(renderer.render(made.png, spec: Self.grid))
        for path in [made.codestream, made.container] {
            let properties = try renderer.probe(path)
            #expect(properties.mediaType == .jpegXL)
            #expect(properties.pixelSize == PixelSize(width: 300, height: 200))
            let thumbnail = try DecodedPixels(renderer.render(path, spec: Self.grid))
            #expect(thumbnail.size == reference.size)
            #expect(thumbnail.meanAbsoluteDifference(to: reference) < 1, "\(path)")
        }
    }

    /// The four orientations that turn a picture a quarter, written into the codestream by
    /// libjxl's own encoder (`cjxl` takes them from a JPEG's EXIF, whose pixels are stored turned
    /// for it): each JPEG XL renders upright, as the picture was before it was turned.
    @Test(.enabled(if: GeneratedMedia.hasCjxl, GeneratedMedia.cjxlSkipReason))
    func orientationsFiveToEightFromLibjxlAreApplied() throws {
        let renderer = VipsRenderer(), picture = SyntheticImage(width: 300, height: 140)
        try folder.write(picture.encoded(as: .jpeg), to: "upright.jpg")
        let upright = try DecodedPixels(renderer.render(folder.path + "/upright.jpg", spec: Self.grid))
        // A picture that mirroring changes, so that a wrong turn would show.
        #expect(upright.meanAbsoluteDifference(to: upright.mirrored(across: true)) > 10)
        #expect(upright.meanAbsoluteDifference(to: upright.mirrored(across: false)) > 10)
        for orientation in 5...8 {
            let jpeg = folder.path + "/turned-\(orientation).jpg", jxl = folder.path + "/turned-\(orientation).jxl"
            try folder.write(picture.encoded(as: .jpeg, orientation: orientation), to: "turned-\(orientation).jpg")
            try GeneratedMedia.jpegXL(at: jxl, fromJPEG: jpeg)
            #expect(try renderer.probe(jxl).pixelSize == PixelSize(width: 300, height: 140), "\(orientation)")
            let thumbnail = try DecodedPixels(renderer.render(jxl, spec: Self.grid))
            #expect(thumbnail.size == upright.size, "orientation \(orientation)")
            #expect(thumbnail.meanAbsoluteDifference(to: upright) < 3, "orientation \(orientation)")
        }
    }

    /// libjxl decodes the whole frame whatever the thumbnail's size: the estimate holds it, with
    /// libjxl's own buffers, beside the lines libvips' shrink keeps.
    @Test(.enabled(if: GeneratedMedia.hasVips, GeneratedMedia.vipsSkipReason))
    func decodeMemoryHoldsTheWholeFrame() throws {
        let made = try jpegXL(name: "memory")
        let needed = try VipsCallGate.run { () throws(ImagingError) in
            let file = try ImageFile(ImageSource(ImageLocation(path: made.codestream)), pixelLimit: 1_000_000)
            return file.decodeMemory(to: PixelSize(width: 16, height: 11), renditionPixels: 0)
        }
        #expect(needed >= 300 * 200 * (3 + 6) + 300 * 3 * 1152)
    }
}
