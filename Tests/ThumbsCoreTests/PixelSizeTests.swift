import Testing
import ThumbsCore

@Suite struct PixelSizeTests {
    @Test func aPixelCountPastIntMaxIsIntMax() {
        // A PNG header may say 4,294,967,295 × 4,294,967,295: counted, not trapped on.
        #expect(PixelSize(width: 0xFFFF_FFFF, height: 0xFFFF_FFFF).pixelCount == .max)
        #expect(PixelSize(width: 640, height: 480).pixelCount == 307_200)
    }

    @Test func aDecodedSizeIsPositiveAndWithinThePixelLimit() throws {
        #expect(
            try PixelSize.decoded(width: Int32(640), height: Int32(480), pixelLimit: 1_000_000)
                == PixelSize(width: 640, height: 480))
        #expect(throws: ImagingError.corrupt("the picture is 0x0 pixels")) {
            try PixelSize.decoded(width: Int32(0), height: Int32(0), pixelLimit: 1_000_000)
        }
        #expect(throws: ImagingError.corrupt("the picture is -5x-5 pixels")) {
            try PixelSize.decoded(width: Int32(-5), height: Int32(-5), pixelLimit: 1_000_000)
        }
        #expect(throws: ImagingError.tooManyPixels(width: 2000, height: 1000, limit: 1_000_000)) {
            try PixelSize.decoded(width: Int32(2000), height: Int32(1000), pixelLimit: 1_000_000)
        }
        // A product past Int.max is too many pixels, not an overflow trap.
        #expect(throws: ImagingError.tooManyPixels(width: Int.max, height: Int.max, limit: Int.max)) {
            try PixelSize.decoded(width: UInt64.max, height: UInt64.max, pixelLimit: Int.max)
        }
    }
}
