import CVips
import CVipsShim
import Foundation
import Glibc
import Testing
import ThumbsCore
@testable import ThumbsImaging
import ThumbsSupport
import ThumbsTestSupport
import ThumbsSamples

/// libjpeg-turbo driven directly encodes what libvips' jpegsave encodes, and nothing but pixels.
@Suite struct JpegEncoderTests {
    /// A photo-like picture in memory, RGB or (`bands` 1) its red as grey, with an ICC profile
    /// attached.
    private func picture(bands: Int, body: (VipsImageHandle) throws -> Void) throws {
        let synthetic = SyntheticImage(width: 333, height: 222)
        let rgb = synthetic.uprightRGB()
        let samples = bands == 3 ? rgb : stride(from: 0, to: rgb.count, by: 3).map { rgb[$0] }
        let profile: [UInt8] = Array("a profile, for the encoder to leave out".utf8)
        let image = try VipsCallGate.run { () throws(ImagingError) in
            guard let pixels = malloc(samples.count)?.assumingMemoryBound(to: UInt8.self) else {
                throw .corrupt("out of memory")
            }
            pixels.initialize(from: samples, count: samples.count)
            guard
                let adopted = thumbs_vips_image_adopting(
                    pixels, Int32(synthetic.width), Int32(synthetic.height), Int32(bands), profile, profile.count)
            else { throw .corrupt(VipsError.takeMessage()) }
            return VipsImageHandle(adopted)
        }
        try body(image)
    }

    private func libvipsJPEG(_ image: VipsImageHandle, quality: Int) throws -> [UInt8] {
        var buffer: UnsafeMutableRawPointer?
        var length = 0
        #expect(thumbs_vips_jpegsave_buffer(image.pointer, &buffer, &length, Int32(quality), 1, 0) == 0)
        defer { g_free(buffer) }
        return Array(UnsafeRawBufferPointer(start: try #require(buffer), count: length))
    }

    @Test(arguments: [(3, 80), (3, 95), (1, 80)])
    func theSamePixelsAsLibvipsJpegsave(bands: Int, quality: Int) throws {
        try picture(bands: bands) { image in
            let ours = try #require(try JpegEncoder.encode(image, quality: quality))
            let theirs = try libvipsJPEG(image, quality: quality)
            let decoded = try DecodedPixels(ours), reference = try DecodedPixels(theirs)
            #expect(decoded.size == image.size)
            // The same tables, chroma sampling and DCT: the same pixels, byte for byte.
            #expect(decoded.bytes == reference.bytes, "\(bands) bands at quality \(quality)")
        }
    }

    @Test func nothingButThePixelsIsWritten() throws {
        try picture(bands: 3) { image in
            #expect(image.has("icc-profile-data"))
            let bytes = try #require(try JpegEncoder.encode(image, quality: 80))
            // Segments before the first scan: JFIF at most, then tables and the frame; no EXIF
            // (APP1), no ICC profile (APP2).
            var at = 2
            while at + 4 <= bytes.count, bytes[at] == 0xFF, bytes[at + 1] != 0xDA {
                #expect(bytes[at + 1] != 0xE1 && bytes[at + 1] != 0xE2, "marker \(bytes[at + 1])")
                at += 2 + Int(bytes[at + 2]) << 8 + Int(bytes[at + 3])
            }
            #expect(bytes[at + 1] == 0xDA)
        }
    }

    @Test func alphaIsLeftToLibvips() throws {
        try picture(bands: 3) { image in
            let withAlpha = try VipsImageHandle.make(ImagingError.corrupt) { thumbs_vips_add_alpha(image.pointer, $0) }
            #expect(try JpegEncoder.encode(withAlpha, quality: 80) == nil)
        }
    }
}
