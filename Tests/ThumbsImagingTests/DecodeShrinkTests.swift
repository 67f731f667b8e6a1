import Testing
import ThumbsCore
@testable import ThumbsImaging

/// The decode scale of JPEGs, HEIF blocks and RAW previews: the largest that leaves the picture
/// at least twice the thumbnail, so that the Lanczos resize does at least a factor of two.
@Suite struct DecodeShrinkTests {
    private func shrink(_ width: Int, _ height: Int, to side: Int, cover: Bool = false) -> Int32 {
        VipsRenderer.decodeShrink(
            PixelSize(width: width, height: height), to: PixelSize(width: side, height: side), cover: cover)
    }

    @Test func thePictureIsDecodedToAtLeastTwiceTheThumbnail() {
        // 1800x1200 to 256: 1/2 (900 px, 3.5x left to resize), not 1/4 (450 px, 1.76x).
        #expect(shrink(1800, 1200, to: 256) == 2)
        // 4000x3000 to 256: 1/4 (1000 px), not 1/8 (500 px, 1.95x).
        #expect(shrink(4000, 3000, to: 256) == 4)
        #expect(shrink(6000, 4000, to: 128) == 8)
        // A 512-px JPEG to 256 is decoded whole: the reduced IDCT is not the whole downscale.
        #expect(shrink(512, 341, to: 256) == 1)
        #expect(shrink(200, 100, to: 256) == 1)
    }

    @Test func exactlyTwiceTheThumbnailIsEnough() {
        #expect(shrink(4096, 3072, to: 256) == 8)
        #expect(shrink(4095, 3072, to: 256) == 4)
        #expect(shrink(1024, 768, to: 256) == 2)
        #expect(shrink(1023, 768, to: 256) == 1)
    }

    @Test func aFillCoversTheBoxWithItsShorterSide() {
        // 6000x4000 filling 256x256: the shorter side, 4000, is 15.6 times 256.
        #expect(shrink(6000, 4000, to: 256, cover: true) == 4)
        #expect(shrink(6000, 4000, to: 256) == 8)
    }

    @Test func everyScaleLeavesTwiceTheTargetAndTheNextWouldNot() {
        for side in stride(from: 300, through: 9000, by: 97) {
            for target in [128, 256, 512] {
                let scale = Int(shrink(side, side / 2, to: target))
                #expect(scale == 1 || side / scale >= 2 * target)
                #expect(scale == 8 || Double(side) / Double(scale * 2) < Double(2 * target))
            }
        }
    }
}
