import Testing
import ThumbsCore

/// Thumbnails are equal by their encoded images: what describes the picture (the placeholder,
/// the partial flag) is carried beside it.
@Suite struct ThumbnailTests {
    @Test func thePartialFlagIsCarriedButLeftOutOfEquality() {
        let whole = Thumbnail(bytes: [1, 2, 3], pixelSize: PixelSize(width: 2, height: 1), format: .png)
        var partial = whole
        partial.isPartial = true
        #expect(!whole.isPartial && partial.isPartial)
        #expect(partial == whole && partial.hashValue == whole.hashValue)
    }
}
