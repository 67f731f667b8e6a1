import CVips
import CVipsShim
import Foundation
import Testing
import ThumbsCore
import ThumbsCoreTestSupport
@testable import ThumbsImaging
import ThumbsSupport
import ThumbsTestSupport

/// PNGs whose colour is given by cHRM and gAMA chunks, drawn as browsers draw them
/// (``PNGHandler``), checked against the colours the PNG specification's formulas give,
/// computed here.
@Suite struct PNGHandlerTests {
    let renderer = VipsRenderer()
    let folder = TemporaryFolder()
    /// 8 x 8 blocks of 8 x 8 pixels, each block one colour: rendered at its own size, each
    /// block's middle is that colour converted, whatever the resize does at the edges.
    static let side = 64
    static let block = 8

    /// The stored colour of block `index` (0..<64): every level of each channel from dark to
    /// light, mixed, with greys among them.
    static func colour(_ index: Int) -> [UInt8] {
        [UInt8(index * 4 % 256), UInt8((index * 37 + 20) % 256), UInt8((index * 101 + 200) % 256)]
    }

    /// cHRM's eight values (white, red, green, blue; x and y times 100000).
    static let srgbChromaticities: [UInt32] = [31270, 32900, 64000, 33000, 30000, 60000, 15000, 6000]
    static let redGreenSwapped: [UInt32] = [31270, 32900, 30000, 60000, 64000, 33000, 15000, 6000]
    static let rec2020: [UInt32] = [31270, 32900, 70800, 29200, 17000, 79700, 13100, 4600]

    // MARK: Files

    /// A PNG of the blocks (grey: the first channel), with no colour chunks, as libvips writes it.
    private func plainPNG(grey: Bool = false) throws -> [UInt8] {
        try VipsRuntime.ensureStarted()
        let bands = grey ? 1 : 3
        let pixels = try #require(malloc(Self.side * Self.side * bands)?.assumingMemoryBound(to: UInt8.self))
        for y in 0..<Self.side {
            for x in 0..<Self.side {
                let colour = Self.colour(y / Self.block * (Self.side / Self.block) + x / Self.block)
                for band in 0..<bands { pixels[(y * Self.side + x) * bands + band] = colour[band] }
            }
        }
        let image = VipsImageHandle(
            try #require(thumbs_vips_image_adopting(pixels, Int32(Self.side), Int32(Self.side), Int32(bands), nil, 0)))
        var buffer: UnsafeMutableRawPointer?
        var length = 0
        #expect(thumbs_vips_pngsave_buffer(image.pointer, &buffer, &length, 1, 1) == 0)
        defer { g_free(buffer) }
        return Array(UnsafeRawBufferPointer(start: buffer, count: length))
    }

    /// A chunk as the PNG specification lays it out: length, type, data, CRC of type and data.
    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + typed + bigEndian(crc(typed))
    }

    static func chunk(_ type: String, values: [UInt32]) -> [UInt8] {
        chunk(type, values.flatMap(bigEndian))
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    /// CRC-32 of ISO 3309, as the PNG specification's annex computes it.
    static func crc(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
        }
        return crc ^ 0xFFFF_FFFF
    }

    /// `png` with `chunks` right after IHDR (8 bytes of signature, 25 of IHDR).
    static func inserting(_ chunks: [[UInt8]], into png: [UInt8]) -> [UInt8] {
        Array(png[..<33]) + chunks.flatMap { $0 } + Array(png[33...])
    }

    /// `png` with `chunks` just before IEND, after the picture, where decoders ignore them.
    static func appending(_ chunks: [[UInt8]], to png: [UInt8]) -> [UInt8] {
        Array(png[..<(png.count - 12)]) + chunks.flatMap { $0 } + Array(png[(png.count - 12)...])
    }

    /// The middle of each block of the file's render at its own size.
    private func renderedBlocks(_ png: [UInt8], name: String) throws -> [[Int]] {
        let path = try folder.write(png, to: name)
        let spec = RenditionSpec(
            size: PixelSize(width: Self.side, height: Self.side), contentMode: .aspectFit, format: .png)
        let pixels = try DecodedPixels(renderer.render(path, spec: spec))
        #expect(pixels.width == Self.side && pixels.height == Self.side)
        return (0..<(Self.side / Self.block * Self.side / Self.block)).map { index in
            let across = Self.side / Self.block
            let x = index % across * Self.block + Self.block / 2, y = index / across * Self.block + Self.block / 2
            let offset = (y * pixels.width + x) * pixels.bands
            return (0..<3).map { Int(pixels.bytes[offset + $0]) }
        }
    }

    /// The largest difference of any channel of any block.
    static func largestDifference(_ blocks: [[Int]], _ expected: [[Int]]) -> Int {
        zip(blocks, expected).flatMap { zip($0, $1).map { abs($0 - $1) } }.max() ?? .max
    }

    // MARK: References

    /// sRGB's encoding of a linear value (IEC 61966-2-1), in levels.
    static func srgbLevel(_ linear: Double) -> Int {
        let clamped = min(1, max(0, linear))
        let encoded = clamped <= 0.003_130_8 ? 12.92 * clamped : 1.055 * pow(clamped, 1 / 2.4) - 0.055
        return Int((encoded * 255).rounded())
    }

    /// The matrix from linear RGB on these primaries to XYZ, white of luminance 1 (SMPTE RP 177).
    static func rgbToXYZ(_ values: [UInt32]) -> [[Double]] {
        let xy = values.map { Double($0) / 100_000 }
        func xyz(_ x: Double, _ y: Double) -> [Double] { [x / y, 1, (1 - x - y) / y] }
        let white = xyz(xy[0], xy[1])
        let primaries = [xyz(xy[2], xy[3]), xyz(xy[4], xy[5]), xyz(xy[6], xy[7])]
        // Columns are the primaries; each scaled so that the three add up to the white.
        let columns = (0..<3).map { row in (0..<3).map { primaries[$0][row] } }
        let scales = multiply(inverse(columns), white)
        return (0..<3).map { row in (0..<3).map { columns[row][$0] * scales[$0] } }
    }

    static func multiply(_ matrix: [[Double]], _ vector: [Double]) -> [Double] {
        matrix.map { row in zip(row, vector).reduce(0) { $0 + $1.0 * $1.1 } }
    }

    static func inverse(_ m: [[Double]]) -> [[Double]] {
        let cofactors = (0..<3).map { r in
            (0..<3).map { c in
                let rows = [(r + 1) % 3, (r + 2) % 3], cols = [(c + 1) % 3, (c + 2) % 3]
                return m[rows[0]][cols[0]] * m[rows[1]][cols[1]] - m[rows[0]][cols[1]] * m[rows[1]][cols[0]]
            }
        }
        let determinant = (0..<3).reduce(0) { $0 + m[0][$1] * cofactors[0][$1] }
        return (0..<3).map { r in (0..<3).map { c in cofactors[c][r] / determinant } }
    }

    /// Each block as a browser shows it: decoded with `exponent` (sRGB's curve when nil), from
    /// linear RGB on `chromaticities` to linear sRGB (the white points being the same, no
    /// adaptation), clipped, encoded.
    static func expectedBlocks(chromaticities: [UInt32], exponent: Double?, grey: Bool = false) -> [[Int]] {
        let toSRGB = inverse(rgbToXYZ(srgbChromaticities))
        let fromFile = rgbToXYZ(chromaticities)
        return (0..<64).map { index in
            let stored = colour(index).map { Double($0) / 255 }
            let linear = (grey ? [stored[0], stored[0], stored[0]] : stored).map { value in
                exponent.map { pow(value, $0) }
                    ?? (value <= 0.040_45 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4))
            }
            return multiply(toSRGB, multiply(fromFile, linear)).map(srgbLevel)
        }
    }

    // MARK: Tests

    @Test func primariesOfCHRMAloneAreHonoured() throws {
        // libavif's ArcTriomphe-cHRM-red-green-swap.png: red and green swapped in cHRM alone,
        // so what the file stores as red is green.
        let png = try plainPNG()
        let swapped = try renderedBlocks(
            Self.inserting([Self.chunk("cHRM", values: Self.redGreenSwapped)], into: png), name: "swap.png")
        let expected = (0..<64).map { Self.colour($0) }.map { [Int($0[1]), Int($0[0]), Int($0[2])] }
        #expect(Self.largestDifference(swapped, expected) <= 2)
        #expect(
            Self.largestDifference(
                swapped, Self.expectedBlocks(chromaticities: Self.redGreenSwapped, exponent: nil)) <= 2)
    }

    @Test func gammaOfGAMAAloneIsHonouredInGreyAndColour() throws {
        // libavif's kodim03_grayscale_gamma1.6.png: gAMA 1/1.6 (62500), so a sample is the
        // linear value to the power 1/1.6.
        for grey in [true, false] {
            let png = Self.inserting([Self.chunk("gAMA", values: [62500])], into: try plainPNG(grey: grey))
            let blocks = try renderedBlocks(png, name: "gamma-\(grey).png")
            let expected = Self.expectedBlocks(chromaticities: Self.srgbChromaticities, exponent: 1.6, grey: grey)
            #expect(Self.largestDifference(blocks, expected) <= 2, "grey: \(grey)")
            // Drawn as sRGB, the midtones come out far darker.
            let asSRGB = Self.expectedBlocks(chromaticities: Self.srgbChromaticities, exponent: nil, grey: grey)
            #expect(Self.largestDifference(blocks, asSRGB) > 20)
        }
    }

    @Test func primariesAndGammaTogether() throws {
        // Rec. 2020 primaries with gamma 1/2.2: saturated colours outside sRGB are clipped.
        let png = Self.inserting(
            [Self.chunk("gAMA", values: [45455]), Self.chunk("cHRM", values: Self.rec2020)], into: try plainPNG())
        let blocks = try renderedBlocks(png, name: "rec2020.png")
        let expected = Self.expectedBlocks(chromaticities: Self.rec2020, exponent: 100_000 / 45455)
        #expect(Self.largestDifference(blocks, expected) <= 2)
    }

    @Test func anICCProfileOrAnSRGBChunkComesBeforeCHRM() throws {
        let plain = try plainPNG()
        let asStored = try renderedBlocks(plain, name: "plain.png")
        let swap = Self.chunk("cHRM", values: Self.redGreenSwapped)
        // The sRGB chunk wins, wherever it is among the colour chunks.
        for (index, chunks) in [[Self.chunk("sRGB", [0]), swap], [swap, Self.chunk("sRGB", [1])]].enumerated() {
            let blocks = try renderedBlocks(Self.inserting(chunks, into: plain), name: "srgb-\(index).png")
            #expect(Self.largestDifference(blocks, asStored) == 0)
        }
        // A Display P3 profile (iCCP) wins too: the file renders as it does without cHRM.
        let image = VipsImageHandle(
            try #require(plain.withUnsafeBytes { thumbs_vips_open_buffer($0.baseAddress, $0.count) }))
        let p3 = try VipsImageHandle.make(ImagingError.corrupt) { thumbs_vips_icc_transform(image.pointer, $0, "p3") }
        var buffer: UnsafeMutableRawPointer?
        var length = 0
        #expect(thumbs_vips_pngsave_buffer(p3.pointer, &buffer, &length, 1, 0) == 0)
        let withProfile = Array(UnsafeRawBufferPointer(start: buffer, count: length))
        g_free(buffer)
        let profiled = try renderedBlocks(withProfile, name: "p3.png")
        let both = try renderedBlocks(Self.inserting([swap], into: withProfile), name: "p3-chrm.png")
        #expect(Self.largestDifference(both, profiled) == 0)
        #expect(Self.largestDifference(profiled, asStored) <= 3, "the P3 numbers come back as the colours")
    }

    @Test func damagedOrMisplacedChunksAreIgnored() throws {
        let plain = try plainPNG()
        let asStored = try renderedBlocks(plain, name: "plain.png")
        var badCRC = Self.chunk("cHRM", values: Self.redGreenSwapped)
        badCRC[badCRC.count - 1] ^= 1
        let cases: [(String, [UInt8])] = [
            ("bad CRC", Self.inserting([badCRC], into: plain)),
            ("gamma 0", Self.inserting([Self.chunk("gAMA", values: [0])], into: plain)),
            ("huge gamma", Self.inserting([Self.chunk("gAMA", values: [0xFFFF_FFFF])], into: plain)),
            ("short gAMA", Self.inserting([Self.chunk("gAMA", [0, 1])], into: plain)),
            (
                "white y 0",
                Self.inserting([Self.chunk("cHRM", values: [31270, 0] + Self.redGreenSwapped[2...])], into: plain)
            ),
            (
                "out of range",
                Self.inserting([Self.chunk("cHRM", values: [UInt32.max] + Self.redGreenSwapped[1...])], into: plain)
            ),
            (
                "no triangle",
                Self.inserting(
                    [Self.chunk("cHRM", values: [31270, 32900] + Array(repeating: 30000, count: 6))], into: plain)
            ),
            ("after IDAT", Self.appending([Self.chunk("cHRM", values: Self.redGreenSwapped)], to: plain)),
        ]
        for (name, png) in cases {
            let blocks = try renderedBlocks(png, name: "damaged.png")
            #expect(Self.largestDifference(blocks, asStored) == 0, "\(name)")
        }
    }

    /// Whatever the bytes, the chunk reader reads inside the file and makes a profile only of
    /// whole, valid chunks: every cut of a file and every byte of its chunks changed.
    @Test func theChunkReaderSurvivesAnyCutOrByte() throws {
        let png = Self.inserting(
            [Self.chunk("gAMA", values: [62500]), Self.chunk("cHRM", values: Self.rec2020)], into: try plainPNG())
        func profile(of bytes: [UInt8]) throws -> Bool {
            let path = try folder.write(bytes, to: "reader.png")
            let descriptor = open(path, O_RDONLY)
            defer { close(descriptor) }
            var length = 0
            guard let profile = thumbs_png_colour_profile(descriptor, 0, &length) else { return false }
            defer { free(profile) }
            return length >= 128
        }
        #expect(try profile(of: png))
        // gAMA, the first chunk after IHDR, ends at byte 49: no cut before it has a whole one.
        for cut in 0..<100 {
            let made = try profile(of: Array(png[..<cut]))
            #expect(made == (cut >= 49), "cut at \(cut)")
        }
        for offset in 8..<100 {
            for value: UInt8 in [0, 0x7F, 0xFF] {
                var changed = png
                changed[offset] = value
                _ = try profile(of: changed)
            }
        }
    }
}
