import CVips
import CVipsShim
import Foundation
import Testing
import ThumbsCore
import ThumbsCoreTestSupport
@testable import ThumbsImaging
import ThumbsRendering
import ThumbsSamples
import ThumbsTestSupport

/// A PNG rendered without libvips gives the thumbnails the engine's libvips path gives, byte for
/// byte, placeholders included, and the same properties; what it does not take, it leaves to
/// the engine.
@Suite struct PNGHandlerDirectTests {
    let folder = TemporaryFolder("thumbs-direct-png")
    let engine = VipsRenderer()
    let handler = PNGHandler()

    /// The JPEG direct path's spec sets, and sizes that leave the block shrink odd remainders.
    static let specSets: [[RenditionSpec]] =
        JPEGHandlerDirectTests.specSets + [
            [RenditionSpec(size: PixelSize(width: 100, height: 37), contentMode: .aspectFill, format: .png)],
            [RenditionSpec(size: PixelSize(width: 333, height: 333), contentMode: .aspectFit, format: .png)],
        ]

    var paths: DirectPathComparison<PNGHandler> { DirectPathComparison(handler: handler) }

    @Test(arguments: [false, true])
    func greyRGBAndPalettePicturesGiveTheEnginesBytes(interlaced: Bool) throws {
        let pictures: [(String, TestPNG)] = [
            ("rgb", TestPNG(width: 901, height: 601, colour: .rgb)),
            ("grey", TestPNG(width: 640, height: 997, colour: .grey)),
            ("grey-2-bit", TestPNG(width: 300, height: 200, colour: .grey, bitDepth: 2)),
            ("rgb-16-bit", TestPNG(width: 517, height: 389, colour: .rgb, bitDepth: 16)),
            ("palette", TestPNG(width: 450, height: 450, colour: .palette)),
            ("strip", TestPNG(width: 2000, height: 40, colour: .rgb)),
        ]
        for (name, picture) in pictures {
            var picture = picture
            picture.interlaced = interlaced
            let path = try folder.write(picture.encoded(), to: "\(name)-\(interlaced).png")
            for specs in Self.specSets {
                try paths.expectSame(path, specs: specs, "\(name), interlaced: \(interlaced)")
            }
            let probes = try paths.bothProbes(path)
            #expect(probes.direct == probes.engine, "\(name)")
        }
    }

    /// Pictures with alpha, of their own or a tRNS chunk's, premultiplied around the resize
    /// where both sides shrink and resized as any band where one keeps its size; flattened onto
    /// white for a JPEG.
    @Test(arguments: [false, true])
    func alphaPicturesGiveTheEnginesBytes(interlaced: Bool) throws {
        var palette = TestPNG(width: 450, height: 450, colour: .palette)
        palette.transparency = (0..<256).map { UInt8(truncatingIfNeeded: $0 * 37) }
        var rgb = TestPNG(width: 480, height: 360, colour: .rgb)
        rgb.transparency = [0, 200, 0, 220, 0, 240]
        var grey = TestPNG(width: 360, height: 480, colour: .grey)
        grey.transparency = [0, 100]
        var grey2 = TestPNG(width: 300, height: 200, colour: .grey, bitDepth: 2)
        grey2.transparency = [0, 1]
        var deep = TestPNG(width: 500, height: 300, colour: .rgb, bitDepth: 16)
        deep.transparency = [0x30, 0x01, 0x30, 0x02, 0x30, 0x03]
        let pictures: [(String, TestPNG)] = [
            ("rgba", TestPNG(width: 901, height: 601, colour: .rgba)),
            ("grey-alpha", TestPNG(width: 640, height: 997, colour: .greyAlpha)),
            ("palette-trns", palette), ("rgb-trns", rgb), ("grey-trns", grey), ("grey-2-bit-trns", grey2),
            ("strip", TestPNG(width: 2000, height: 40, colour: .rgba)),
            ("rgba-16-bit", TestPNG(width: 517, height: 389, colour: .rgba, bitDepth: 16)), ("rgb-16-bit-trns", deep),
        ]
        // One side kept whole (no premultiplying), and a box both sides shrink into.
        let specSets =
            Self.specSets + [
                [RenditionSpec(size: PixelSize(width: 2000, height: 20), contentMode: .aspectFit, format: .png)],
                [RenditionSpec(size: PixelSize(width: 77, height: 51), contentMode: .aspectFill, format: .jpeg)],
            ]
        for (name, picture) in pictures {
            var picture = picture
            picture.interlaced = interlaced
            let path = try folder.write(picture.encoded(), to: "\(name)-\(interlaced).png")
            for specs in specSets {
                try paths.expectSame(path, specs: specs, "\(name), interlaced: \(interlaced), \(specs)")
            }
            let probes = try paths.bothProbes(path)
            #expect(probes.direct == probes.engine, "\(name)")
        }
    }

    /// Colour stated by chunks (gAMA, cHRM, sRGB) or an ICC profile is converted as the engine
    /// converts it, through the same lcms transforms.
    @Test func colourChunksAndProfilesGiveTheEnginesBytes() throws {
        let plain = TestPNG(width: 700, height: 500, colour: .rgb)
        let chunkSets: [(String, [[UInt8]])] = [
            ("gamma", [PNGHandlerTests.chunk("gAMA", values: [62500])]),
            (
                "rec2020",
                [
                    PNGHandlerTests.chunk("gAMA", values: [45455]),
                    PNGHandlerTests.chunk("cHRM", values: PNGHandlerTests.rec2020),
                ]
            ),
            ("srgb", [PNGHandlerTests.chunk("sRGB", [0]), PNGHandlerTests.chunk("gAMA", values: [45455])]),
            ("p3", [try Self.iccpChunk(profile: "p3")]),
        ]
        for (name, chunks) in chunkSets {
            var picture = plain
            picture.chunks = chunks
            let path = try folder.write(picture.encoded(), to: "\(name).png")
            for specs in Self.specSets { try paths.expectSame(path, specs: specs, "\(name)") }
        }
        var grey = TestPNG(width: 300, height: 200, colour: .grey)
        grey.chunks = [PNGHandlerTests.chunk("gAMA", values: [62500])]
        let path = try folder.write(grey.encoded(), to: "grey-gamma.png")
        for specs in Self.specSets { try paths.expectSame(path, specs: specs, "grey with gAMA") }
    }

    /// An iCCP chunk of libvips' profile named `profile`, zlib-compressed as the chunk stores it.
    static func iccpChunk(profile name: String) throws -> [UInt8] {
        try VipsRuntime.ensureStarted()
        var profile: [UInt8] = []
        try VipsCallGate.run { () throws(ImagingError) in
            let plain = try SyntheticImage(width: 8, height: 8).encoded(as: .png)
            let image = try VipsImageHandle.make(ImagingError.corrupt) {
                $0.pointee = plain.withUnsafeBytes { thumbs_vips_open_buffer($0.baseAddress, $0.count) }
                return $0.pointee == nil ? -1 : 0
            }
            let converted = try VipsImageHandle.make(ImagingError.corrupt) {
                thumbs_vips_icc_transform(image.pointer, $0, name)
            }
            profile = converted.blob("icc-profile-data") ?? []
        }
        return PNGHandlerTests.chunk("iCCP", Array("\(name)\0\0".utf8) + TestPNG.zlibStored(profile))
    }

    @Test func textChunksGiveLibvipssXMP() throws {
        let xmp = "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF/></x:xmpmeta>"
        var picture = TestPNG(width: 200, height: 100, colour: .rgb)
        picture.chunks = [
            PNGHandlerTests.chunk("tEXt", Array("Comment\0a comment".utf8)),
            PNGHandlerTests.chunk("iTXt", Array("XML:com.adobe.xmp\0\0\0\0\0\(xmp)".utf8)),
        ]
        let probes = try paths.bothProbes(try folder.write(picture.encoded(), to: "xmp.png"))
        #expect(probes.direct == probes.engine)
    }

    @Test func sixteenBitGreyAndEXIfAreTheEnginesToRender() throws {
        let grey16 = try folder.write(
            TestPNG(width: 64, height: 64, colour: .grey, bitDepth: 16).encoded(), to: "g.png")
        let greyAlpha16 = try folder.write(
            TestPNG(width: 64, height: 64, colour: .greyAlpha, bitDepth: 16).encoded(), to: "ga16.png")
        var transparent = TestPNG(width: 64, height: 64, colour: .grey, bitDepth: 16)
        transparent.transparency = [0, 0]
        let trns = try folder.write(transparent.encoded(), to: "t16.png")
        // Alpha with a profile that is not sRGB: libvips' icc_transform converts it.
        var profiled = TestPNG(width: 64, height: 64, colour: .rgba)
        profiled.chunks = [try Self.iccpChunk(profile: "p3")]
        let p3 = try folder.write(profiled.encoded(), to: "p3-alpha.png")
        // An eXIf chunk before the picture (libvips reads none after it): IFD0 with orientation 6.
        var turned = TestPNG(width: 64, height: 48, colour: .rgb)
        let tiff: [UInt8] =
            Array("MM\0*".utf8) + [0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 6, 0, 0, 0, 0, 0, 0]
        turned.chunks = [PNGHandlerTests.chunk("eXIf", tiff)]
        let exif = try folder.write(turned.encoded(), to: "exif.png")
        for path in [grey16, greyAlpha16, trns, p3, exif] {
            #expect(try paths.bothPaths(path, specs: Self.specSets[0]) == nil, "\(path)")
            let probes = try paths.bothProbes(path)
            #expect(probes.direct == probes.engine, "\(path)")
        }
        let photo = try folder.write(TestPNG(width: 300, height: 200, colour: .rgb).encoded(), to: "photo.png")
        let webP = RenditionSpec(size: PixelSize(width: 100, height: 100), format: .webp)
        let upscaled = RenditionSpec(size: PixelSize(width: 600, height: 600), allowsUpscaling: true)
        #expect(try paths.bothPaths(photo, specs: [webP]) == nil)
        #expect(try paths.bothPaths(photo, specs: [upscaled]) == nil)
    }

    /// What libpng only warns about, libvips reads past: an ancillary chunk whose CRC is wrong
    /// (dropped), an sRGB chunk with a gAMA chunk that contradicts it. So does the direct path.
    @Test func whatLibpngWarnsAboutGivesTheEnginesBytes() throws {
        var chunk = PNGHandlerTests.chunk("tEXt", Array("Comment\0text".utf8))
        chunk[chunk.count - 1] ^= 1
        let chunkSets: [(String, [[UInt8]])] = [
            ("bad-ancillary-crc", [chunk]),
            ("contradicted", [PNGHandlerTests.chunk("sRGB", [0]), PNGHandlerTests.chunk("gAMA", values: [62500])]),
        ]
        for (name, chunks) in chunkSets {
            var picture = TestPNG(width: 640, height: 480, colour: .rgb)
            picture.chunks = chunks
            let path = try folder.write(picture.encoded(), to: "\(name).png")
            for specs in Self.specSets { try paths.expectSame(path, specs: specs, "\(name)") }
        }
    }

    /// A truncated file, or one whose picture data fails its CRC, is the engine's: it gives the
    /// typed error the engine gives.
    @Test func damagedFilesAreTheEnginesToJudge() throws {
        let whole = try TestPNG(width: 640, height: 480, colour: .rgb).encoded()
        var badCRC = whole
        badCRC[badCRC.count - 12 - 1] ^= 0xFF  // the last IDAT's CRC
        let files: [(String, [UInt8])] = [
            ("truncated.png", Array(whole.prefix(whole.count * 2 / 3))), ("bad-crc.png", badCRC),
        ]
        let specs = Self.specSets[0]
        for (name, bytes) in files {
            let path = try folder.write(bytes, to: name)
            #expect(try paths.bothPaths(path, specs: specs) == nil, "\(name)")
            let source = try ImageSource(ImageLocation(path: path))
            #expect(
                Self.outcome { () throws(ImagingError) in try handler.render(source, specs: specs, engine: engine) }
                    == Self.outcome { () throws(ImagingError) in try engine.render(source, as: handler, specs: specs) },
                "\(name)")
        }
    }

    /// The thumbnails' bytes, or the kind of error the render failed with.
    static func outcome(_ render: () throws(ImagingError) -> [Thumbnail]) -> String {
        do throws(ImagingError) {
            return "\(try render().map(\.bytes))"
        } catch {
            return "\(error.kind)"
        }
    }

    /// A process that confines itself first opens libvips for a PNG only where its chunk headers
    /// or its end tell that libvips may have to take it over.
    @Test func aPlainPNGNeedsNoLibrary() throws {
        func libraries(_ name: String, _ bytes: [UInt8]) throws -> Set<DecodingLibrary> {
            let path = try folder.write(bytes, to: name)
            return handler.libraries(for: try ImageSource(ImageLocation(path: path)))
        }
        var gamma = TestPNG(width: 30, height: 20, colour: .grey)
        gamma.chunks = [PNGHandlerTests.chunk("gAMA", values: [62500])]
        let plain = try TestPNG(width: 300, height: 200, colour: .rgb).encoded()
        #expect(try libraries("plain.png", plain) == [])
        #expect(try libraries("gamma.png", gamma.encoded()) == [])
        #expect(try libraries("palette.png", TestPNG(width: 30, height: 20, colour: .palette).encoded()) == [])
        #expect(try libraries("truncated.png", Array(plain.dropLast(100))) == [.libvips])
        let rgba = try SyntheticImage(width: 30, height: 20, pixels: .rgba).encoded(as: .png)
        #expect(try libraries("rgba.png", rgba) == [])
        var palette = TestPNG(width: 30, height: 20, colour: .palette)
        palette.transparency = [0, 128, 255]
        #expect(try libraries("palette-trns.png", palette.encoded()) == [])
        #expect(
            try libraries("rgba-16.png", TestPNG(width: 30, height: 20, colour: .rgba, bitDepth: 16).encoded()) == [])
        #expect(
            try libraries(
                "grey-alpha-16.png", TestPNG(width: 30, height: 20, colour: .greyAlpha, bitDepth: 16).encoded())
                == [.libvips])
        // Alpha with colour that is not sRGB is libvips' to convert; with sRGB's, it is not.
        for (name, chunks, expected) in [
            ("alpha-gamma", [PNGHandlerTests.chunk("gAMA", values: [62500])], Set<DecodingLibrary>([.libvips])),
            ("alpha-p3", [try Self.iccpChunk(profile: "p3")], [.libvips]),
            ("alpha-srgb-profile", [try Self.iccpChunk(profile: "srgb")], []),
            ("alpha-srgb", [PNGHandlerTests.chunk("sRGB", [0]), PNGHandlerTests.chunk("gAMA", values: [45455])], []),
        ] {
            var picture = TestPNG(width: 30, height: 20, colour: .greyAlpha)
            picture.chunks = chunks
            #expect(try libraries("\(name).png", picture.encoded()) == expected, "\(name)")
        }
        // Profiles lcms converts from (Display P3), or not (CMYK on RGB, a profile that does not
        // inflate).
        for (name, chunk, expected) in [
            ("p3", try Self.iccpChunk(profile: "p3"), Set<DecodingLibrary>()),
            ("cmyk", try Self.iccpChunk(profile: "cmyk"), [.libvips]),
            (
                "not-deflated", PNGHandlerTests.chunk("iCCP", Array("p3\0\0".utf8) + Array(repeating: 7, count: 40)),
                [.libvips]
            ),
        ] {
            var profiled = TestPNG(width: 30, height: 20, colour: .rgb)
            profiled.chunks = [chunk]
            #expect(try libraries("\(name).png", profiled.encoded()) == expected, "\(name)")
        }
        if SharedPhotos.isPresent {
            for path in ["exports/DJI-FC6310-16bit_709.png", "exports/paris_icc_exif_xmp.png"] {
                let location = ImageLocation(path: SharedPhotos.root.appendingPathComponent(path).path)
                #expect(handler.libraries(for: try ImageSource(location)) == [], "\(path): an RGB profile")
            }
        }
        #expect(try libraries("not-a-png.png", Array(plain.prefix(20))) == [.libvips])
    }

    static let sharedPNGs = SharedPhotos.entries.filter {
        $0.notes["loader"] == "pngload" && $0.notes["decode"] == "ok" && $0.expectedError == nil
    }

    @Test(.enabled(if: SharedPhotos.isPresent, SharedPhotos.skipReason), arguments: sharedPNGs)
    func everySharedPNGTheDirectPathTakesGivesTheEnginesBytes(entry: SharedPhotos.Entry) throws {
        for specs in Self.specSets {
            guard let rendered = try paths.bothPaths(entry.path, specs: specs) else {
                // Declined (16-bit grey, an eXIf chunk, alpha with a gAMA chunk): what a confined
                // process opens libvips for.
                let source = try ImageSource(ImageLocation(path: entry.path))
                #expect(handler.libraries(for: source) == [.libvips])
                return
            }
            for (direct, engine) in zip(rendered.direct, rendered.engine) {
                #expect(direct.bytes == engine.bytes)
                #expect(direct.placeholder == engine.placeholder)
            }
        }
    }

    @Test(.enabled(if: SharedPhotos.isPresent, SharedPhotos.skipReason), arguments: sharedPNGs)
    func everySharedPNGsPropertiesAreLibvipss(entry: SharedPhotos.Entry) throws {
        let probes = try paths.bothProbes(entry.path)
        #expect(probes.direct == probes.engine)
    }
}
