import Testing
import ThumbsCore
@testable import ThumbsImaging
import ThumbsSupport
import ThumbsTestSupport
import ThumbsSamples

@Suite struct RenditionGeometryTests {
    private let landscape = PixelSize(width: 4000, height: 3000)

    private func spec(_ width: Int, _ height: Int, _ mode: ContentMode, upscale: Bool = false) -> RenditionSpec {
        RenditionSpec(size: PixelSize(width: width, height: height), contentMode: mode, allowsUpscaling: upscale)
    }

    /// Sizes reach the geometry checked, but its arithmetic is total all the same: a source of
    /// no pixels never has a NaN or an infinity converted, and its shared decode has sides of 1.
    @Test func aSourceOfNoPixelsTrapsNothing() {
        let none = PixelSize(width: 0, height: 0)
        for mode in [ContentMode.aspectFit, .aspectFill] {
            _ = RenditionGeometry.outputSize(source: none, spec: spec(256, 256, mode))
            let decode = RenditionGeometry.sharedDecodeSize(source: none, specs: [spec(256, 256, mode)])
            #expect(decode.width >= 1 && decode.height >= 1)
        }
    }

    @Test func fitKeepsTheWholeImageInsideTheBox() {
        #expect(
            RenditionGeometry.outputSize(source: landscape, spec: spec(256, 256, .aspectFit))
                == PixelSize(width: 256, height: 192))
        #expect(
            RenditionGeometry.outputSize(source: landscape.transposed, spec: spec(256, 256, .aspectFit))
                == PixelSize(width: 192, height: 256))
    }

    @Test func fillIsExactlyTheBox() {
        #expect(
            RenditionGeometry.outputSize(source: landscape, spec: spec(256, 256, .aspectFill))
                == PixelSize(width: 256, height: 256))
        #expect(
            RenditionGeometry.outputSize(
                source: PixelSize(width: 6000, height: 1000), spec: spec(300, 200, .aspectFill))
                == PixelSize(width: 300, height: 200))
    }

    @Test func smallSourcesAreNotEnlargedUnlessAsked() {
        let small = PixelSize(width: 300, height: 100)
        #expect(RenditionGeometry.outputSize(source: small, spec: spec(1024, 1024, .aspectFit)) == small)
        // Fill keeps the box's aspect ratio at the source's own resolution.
        #expect(
            RenditionGeometry.outputSize(source: small, spec: spec(256, 256, .aspectFill))
                == PixelSize(width: 100, height: 100))
        #expect(
            RenditionGeometry.outputSize(source: small, spec: spec(600, 600, .aspectFit, upscale: true))
                == PixelSize(width: 600, height: 200))
        #expect(
            RenditionGeometry.outputSize(source: small, spec: spec(256, 256, .aspectFill, upscale: true))
                == PixelSize(width: 256, height: 256))
    }

    @Test func neverProducesAnEmptyImage() {
        let sliver = PixelSize(width: 10_000, height: 3)
        #expect(
            RenditionGeometry.outputSize(source: sliver, spec: spec(100, 100, .aspectFit))
                == PixelSize(width: 100, height: 1))
    }

    @Test func sharedDecodeCoversEverySpec() {
        let specs = [spec(1024, 1024, .aspectFit), spec(256, 256, .aspectFill), spec(64, 64, .aspectFit)]
        let decode = RenditionGeometry.sharedDecodeSize(source: landscape, specs: specs)
        #expect(decode == PixelSize(width: 1024, height: 768))
        // A fill narrower than the source's aspect needs more height than the fit provides.
        let tall = [spec(512, 512, .aspectFit), spec(400, 400, .aspectFill)]
        let tallDecode = RenditionGeometry.sharedDecodeSize(source: PixelSize(width: 6000, height: 1000), specs: tall)
        #expect(tallDecode.height >= 400)
    }

    /// A 4:3 photo's 256 fill and 128 fit share a decode of the fill's cover, 341 × 256, from
    /// which the fill is its centre crop, as from the photo alone.
    @Test func aFillsSharedDecodeIsItsCover() {
        let photo = PixelSize(width: 400, height: 300)
        let specs = [spec(128, 128, .aspectFit), spec(256, 256, .aspectFill)]
        let decode = RenditionGeometry.sharedDecodeSize(source: photo, specs: specs)
        #expect(decode == PixelSize(width: 341, height: 256))
        #expect(decode == VipsRenderer.cover(photo, box: PixelSize(width: 256, height: 256)).size)
        // 2736 × 1540 at 1024 fit is 1024 × 576, whose scale (576 / 1540) gives 1023.3 across.
        let wide = RenditionGeometry.sharedDecodeSize(
            source: PixelSize(width: 2736, height: 1540),
            specs: [spec(1024, 1024, .aspectFit), spec(256, 256, .aspectFill)])
        #expect(wide == PixelSize(width: 1024, height: 576))
    }

    /// A 256 fit beside a 256 fill of a 4:3 photo would be a 1.33× resize of the fill's cover:
    /// the decode is twice the cover, from which each is a resize of at least two.
    @Test func renditionsWithinTwiceTheLargestShareADecodeTwiceIt() {
        let photo = PixelSize(width: 4000, height: 3000)
        let specs = [spec(128, 128, .aspectFit), spec(256, 256, .aspectFit), spec(256, 256, .aspectFill)]
        #expect(RenditionGeometry.sharedDecodeSize(source: photo, specs: specs) == PixelSize(width: 683, height: 512))
        // Never past the photo's own size.
        let small = PixelSize(width: 400, height: 300)
        #expect(RenditionGeometry.sharedDecodeSize(source: small, specs: specs) == small)
        // Halves and farther apart keep the largest's size: the desktop's sizes, a grid and a preview.
        #expect(RenditionGeometry.sharedScale([0.5, 0.25, 0.125]) == 0.5)
        #expect(RenditionGeometry.sharedScale([0.25, 0.05]) == 0.25)
        #expect(RenditionGeometry.sharedScale([0.25, 0.2]) == 0.5)
        #expect(RenditionGeometry.sharedScale([0.7, 0.5]) == 1)
        #expect(RenditionGeometry.sharedScale([2, 1.5]) == 2)
        // Twice within the rounding of whole pixels: 245 and 123 px tall of 532.
        #expect(RenditionGeometry.sharedScale([245.0 / 510, 128.0 / 532]) == 245.0 / 510)
        #expect(RenditionGeometry.isTwice(245.0 / 510, or: 128.0 / 532))
        #expect(!RenditionGeometry.isTwice(0.5, or: 0.3))
    }
}
