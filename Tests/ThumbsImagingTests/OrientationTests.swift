import CResample
import CVips
import CVipsShim
import Foundation
import Testing
import ThumbsCore
@testable import ThumbsImaging

/// The turns of the EXIF orientations on pictures in memory (`thumbs_orient`, through
/// `VipsRenderer.upright`): libvips' autorot, pixel for pixel.
@Suite struct OrientationTests {
    /// A picture of `bands` bands (grey or sRGB) as a libvips image that owns its pixels.
    private func image(width: Int, height: Int, bands: Int) throws -> VipsImageHandle {
        let count = width * height * bands
        let pixels = try #require(malloc(count)?.assumingMemoryBound(to: UInt8.self))
        for index in 0..<count {
            pixels[index] = ResampleTests.photoLike(index / bands % width, index / bands / width, index % bands)
        }
        return VipsImageHandle(
            try #require(thumbs_vips_image_adopting(pixels, Int32(width), Int32(height), Int32(bands), nil, 0)))
    }

    @Test("every orientation turns a picture as libvips' autorot does", arguments: [1, 3])
    func everyOrientationIsLibvipsAutorot(bands: Int) throws {
        try VipsRuntime.ensureStarted()
        let picture = try image(width: 37, height: 23, bands: bands)
        for orientation in Int32(1)...8 {
            let (ours, theirs) = try VipsCallGate.run { () throws(ImagingError) in
                (
                    try VipsRenderer.upright(picture, orientation: orientation, ImagingError.corrupt),
                    try VipsImageHandle.make(ImagingError.corrupt) {
                        thumbs_vips_orient(picture.pointer, $0, orientation)
                    }
                )
            }
            #expect(ours.size == theirs.size, "orientation \(orientation)")
            #expect(try ours.pixelBytes() == theirs.pixelBytes(), "orientation \(orientation)")
        }
    }

    @Test("a target of the wrong size, an orientation out of range or mismatched bands are refused")
    func refusals() {
        var pixels = [UInt8](repeating: 7, count: 4 * 3 * 3)
        var turned = [UInt8](repeating: 0, count: 4 * 3 * 3)
        func status(width: Int32, height: Int32, bands: Int32 = 3, orientation: Int32) -> Int32 {
            pixels.withUnsafeMutableBufferPointer { input in
                turned.withUnsafeMutableBufferPointer { output in
                    var source = thumbs_pixels(pixels: input.baseAddress, width: 4, height: 3, bands: 3, stride: 12)
                    var target = thumbs_pixels(
                        pixels: output.baseAddress, width: width, height: height, bands: bands,
                        stride: Int(width * bands))
                    return thumbs_orient(&source, &target, orientation)
                }
            }
        }
        #expect(status(width: 3, height: 4, orientation: 6) == 0)
        #expect(status(width: 4, height: 3, orientation: 6) == -1)
        #expect(status(width: 3, height: 4, orientation: 3) == -1)
        #expect(status(width: 4, height: 3, orientation: 0) == -1)
        #expect(status(width: 4, height: 3, orientation: 9) == -1)
        #expect(status(width: 4, height: 3, bands: 1, orientation: 2) == -1)
    }
}
