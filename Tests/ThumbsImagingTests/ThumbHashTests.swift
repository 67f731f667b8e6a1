import Foundation
import Testing
import ThumbsCore
import ThumbsCoreTestSupport
@testable import ThumbsImaging
import ThumbsSupport
import ThumbsTestSupport
import ThumbsTesting

@Suite struct ThumbHashTests {
    /// An opaque test image whose pixels follow a formula, and its hash.
    ///
    /// The hashes were computed once with the PyPI package `thumbhash` 0.1.2, a port of the
    /// reference encoder, from these same pixels (each formula written the same way in Python).
    /// That port rounds halves to even where the reference rounds them up; none of these images
    /// hits a half where the two differ (the script checked every rounding). It cannot encode an
    /// image with alpha (its alpha terms are assigned as a tuple and fail), so alpha is checked
    /// below by structure and round trip instead.
    struct Vector: Sendable, CustomTestStringConvertible {
        let name: String
        let width: Int
        let height: Int
        let base64: String

        var testDescription: String { name }

        func pixel(_ x: Int, _ y: Int) -> (Int, Int, Int) {
            switch name {
            case "landscape": ((x * 5 + y * 2) % 256, (x * y) % 256, (255 - 2 * x) % 256)
            case "portrait": ((x * 8) % 256, (y * 2 + 40) % 256, ((x ^ y) * 3) % 256)
            case "quadrants": (x < 32 ? 220 : 40, y < 32 ? 40 : 200, ((x + y) * 2) % 256)
            case "pixel": (12, 200, 99)
            case "red": (255, 0, 0)
            default: ((x * 36) % 256, (y * 120) % 256, 90)
            }
        }

        var rgba: [UInt8] { ThumbHashTests.rgba(width, height) { pixel($0, $1) } }
    }

    static let vectors = [
        Vector(name: "landscape", width: 100, height: 75, base64: "IQcGXYJ/OHdXR6d3d3p3d3B3197A"),
        Vector(name: "portrait", width: 30, height: 100, base64: "XtgNMhiCgGeHh3h4cHoN54c="),
        Vector(name: "quadrants", width: 64, height: 64, base64: "3xcObxx7dYlweIiHiJiId4iG94iIj44H"),
        Vector(name: "pixel", width: 1, height: 1, base64: "Gog0F1wI9wiIh4hwj3CI+AiIgIAI94cP"),
        Vector(name: "red", width: 20, height: 10, base64: "1fsDBICHaHh3d4iHiI8HnHTASQ=="),
        Vector(name: "strip", width: 7, height: 3, base64: "mugNS6Jyd3dwiHeIcnAn94g="),
    ]

    /// Opaque RGBA pixels, row by row, from `colour(x, y)`.
    static func rgba(
        _ width: Int, _ height: Int, alpha: (Int, Int) -> Int = { _, _ in 255 }, _ colour: (Int, Int) -> (Int, Int, Int)
    ) -> [UInt8] {
        var bytes: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                let (r, g, b) = colour(x, y)
                bytes += [UInt8(r), UInt8(g), UInt8(b), UInt8(alpha(x, y))]
            }
        }
        return bytes
    }

    @Test(arguments: vectors)
    func matchesTheReferenceEncoder(vector: Vector) throws {
        let hash = ThumbHash(rgba: vector.rgba, width: vector.width, height: vector.height)
        #expect(hash.base64 == vector.base64)
        #expect(ThumbHash(base64: vector.base64) == hash)
        #expect(ThumbHash(bytes: hash.bytes) == hash)
        #expect(!hash.hasAlpha)
    }

    @Test func aSolidColourDecodesToThatColour() {
        let hash = ThumbHash(rgba: Self.rgba(40, 30) { _, _ in (255, 0, 0) }, width: 40, height: 30)
        let average = hash.averageColor
        #expect(average.red > 0.95 && average.green < 0.05 && average.blue < 0.05 && average.alpha == 1)
        let image = hash.rgba()
        #expect(image.width == 32 && image.height == 23, "4:3 kept as 7:5, 32 pixels across")
        #expect(image.pixels.count == image.width * image.height * 4)
        for pixel in stride(from: 0, to: image.pixels.count, by: 4) {
            #expect(image.pixels[pixel] >= 240 && image.pixels[pixel + 1] <= 15 && image.pixels[pixel + 2] <= 15)
            #expect(image.pixels[pixel + 3] == 255)
        }
    }

    @Test(arguments: [(100, 50), (100, 75), (64, 64), (25, 100), (100, 1), (1, 100)])
    func keepsTheAspectRatio(width: Int, height: Int) {
        let hash = ThumbHash(
            rgba: Self.rgba(width, height) { x, y in (x * 2, y * 2, 128) }, width: width, height: height)
        let actual = Double(width) / Double(height)
        let approximate = hash.approximateAspectRatio
        // Seven luminance terms along the longer side: the ratio is a multiple of 1/7 (or of 7).
        if width == height {
            #expect(approximate == 1)
        } else if width > height {
            #expect(approximate > 1 && abs(7 / approximate - 7 / actual) <= 0.5 + 1e-9 || approximate == 7)
        } else {
            #expect(approximate < 1 && abs(7 * approximate - 7 * actual) <= 0.5 + 1e-9 || approximate == 1.0 / 7)
        }
        let image = hash.rgba()
        #expect(max(image.width, image.height) == 32)
        #expect((image.width > image.height) == (width > height) && (image.width == image.height) == (width == height))
    }

    @Test func alphaIsKeptWithFewerLuminanceTerms() throws {
        // Left half fully transparent, right half opaque blue.
        let pixels = Self.rgba(20, 20, alpha: { x, _ in x < 10 ? 0 : 255 }) { _, _ in (0, 0, 255) }
        let hash = ThumbHash(rgba: pixels, width: 20, height: 20)
        #expect(hash.hasAlpha && hash.bytes.count == 25)
        #expect(abs(hash.averageColor.alpha - 0.5) < 0.05)
        #expect(hash.averageColor.blue > 0.9, "the average is over the visible pixels")
        let image = hash.rgba()
        let row = image.height / 2
        func alpha(atX x: Int) -> UInt8 { image.pixels[(row * image.width + x) * 4 + 3] }
        #expect(alpha(atX: 2) < 64 && alpha(atX: image.width - 3) > 190)
        #expect(image.pixels[(row * image.width + image.width - 3) * 4 + 2] > 200)
        #expect(ThumbHash(bytes: hash.bytes) == hash)

        let clear = ThumbHash(rgba: [UInt8](repeating: 0, count: 4 * 9), width: 3, height: 3)
        #expect(clear.hasAlpha && clear.averageColor.alpha == 0)
    }

    @Test func refusesBytesThatAreNotAHash() throws {
        let hash = try #require(ThumbHash(base64: Self.vectors[0].base64))
        let bytes = hash.bytes
        #expect(ThumbHash(bytes: []) == nil)
        #expect(ThumbHash(bytes: Array(bytes.prefix(4))) == nil)
        #expect(ThumbHash(bytes: Array(bytes.dropLast())) == nil, "a term missing")
        #expect(ThumbHash(bytes: bytes + [0]) == nil, "a byte too many")
        var noTerms = bytes
        noTerms[3] &= ~7
        #expect(ThumbHash(bytes: noTerms) == nil, "no luminance terms along the shorter side")
        var alphaTooWide = bytes
        alphaTooWide[2] |= 0x80  // with alpha, at most 5 terms; this one says 5 of 7 and more bytes
        alphaTooWide[3] = alphaTooWide[3] & ~7 | 6
        #expect(ThumbHash(bytes: alphaTooWide) == nil)
        // 37 terms (a square opaque image): the last byte's high half is unused, and must be 0.
        let square = try #require(ThumbHash(base64: Self.vectors[2].base64)).bytes
        #expect(ThumbHash(bytes: square.dropLast() + [square.last! | 0xF0]) == nil)
        #expect(ThumbHash(base64: "not base64!") == nil)
        #expect(ThumbHash(base64: "AAAA") == nil)
    }

    @Test func aLosslessThumbnailHashesAsItsPixels() throws {
        for (image, container) in [
            (SyntheticImage(width: 90, height: 60), SyntheticImage.Container.png),
            (SyntheticImage(width: 60, height: 90, pixels: .rgba), .png),
        ] {
            let rgb = image.uprightRGB()
            let alpha: (Int, Int) -> Int =
                image.pixels == .rgba ? { x, _ in 128 + x * 127 / image.width } : { _, _ in 255 }
            let pixels = Self.rgba(image.width, image.height, alpha: alpha) { x, y in
                let i = (y * image.width + x) * 3
                return (Int(rgb[i]), Int(rgb[i + 1]), Int(rgb[i + 2]))
            }
            let encoded = try image.encoded(as: container)
            let thumbnail = Thumbnail(
                bytes: encoded, pixelSize: PixelSize(width: image.width, height: image.height), format: .png)
            let hash = try ThumbHash(encoded: thumbnail)
            #expect(hash == ThumbHash(rgba: pixels, width: image.width, height: image.height))
            #expect(hash.hasAlpha == (image.pixels == .rgba))
        }
    }

    @Test func aLargerThumbnailIsShrunkToFitTheHash() throws {
        let jpeg = try SyntheticImage(width: 600, height: 400).encoded(as: .jpeg)
        let hash = try ThumbHash(encoded: jpeg)
        #expect(!hash.hasAlpha && hash.approximateAspectRatio == 7.0 / 5)
        let grey = try SyntheticImage(width: 300, height: 200, pixels: .grey).encoded(as: .webp)
        // Grey: the colour differences are kept in steps of 1/31.5, so a grey may come back a
        // step off in each.
        let average = try ThumbHash(encoded: grey).averageColor
        #expect(abs(average.red - average.green) < 0.04 && abs(average.green - average.blue) < 0.04)
        #expect(throws: ImagingError.self) { try ThumbHash(encoded: Array(jpeg.prefix(jpeg.count / 2))) }
        #expect(throws: ImagingError.self) { try ThumbHash(encoded: [0xFF, 0xD8, 0xFF]) }
        #expect(throws: ImagingError.self) { try ThumbHash(encoded: []) }
    }

    @Test(arguments: [SyntheticImage.Pixels.rgb, .grey])
    func aRendersSmallestThumbnailCarriesThePlaceholderOfItsPicture(pixels: SyntheticImage.Pixels) throws {
        let folder = TemporaryFolder()
        let path = try folder.write(
            SyntheticImage(width: 600, height: 400, pixels: pixels).encoded(as: .jpeg), to: "photo.jpg")
        let specs = [
            RenditionSpec(size: PixelSize(width: 512, height: 512)),
            RenditionSpec(size: PixelSize(width: 96, height: 96), contentMode: .aspectFill, format: .png),
            RenditionSpec(size: PixelSize(width: 256, height: 256)),
        ]
        for thumbnails in [
            try VipsRenderer().render(path, specs: specs), [try VipsRenderer().render(path, spec: specs[1])],
        ] {
            let smallest = try #require(thumbnails.first { $0.pixelSize == PixelSize(width: 96, height: 96) })
            #expect(thumbnails.filter { $0.placeholder != nil } == [smallest])
            // A lossless thumbnail under the hash's 100 x 100: the same pixels as its file's (a
            // grey one's pixels as libvips makes them sRGB).
            #expect(smallest.placeholder == (try ThumbHash(encoded: smallest)))
        }
        // A JPEG's placeholder is made from the pixels before they were encoded: close to the
        // hash of the decoded file, not equal.
        let jpeg = try VipsRenderer().render(path, specs: [specs[0], specs[2]])
        #expect(try #require(jpeg[1].placeholder).resembles(try ThumbHash(encoded: jpeg[1])))
    }
}
