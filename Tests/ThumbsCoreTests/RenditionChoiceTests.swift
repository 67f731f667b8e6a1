import Testing
import ThumbsCore

@Suite struct RenditionChoiceTests {
    private let grid = PixelSize(width: 256, height: 256)
    private let preview = PixelSize(width: 1024, height: 768)

    @Test func picksTheClosestArea() {
        let wanted = PixelSize(width: 300, height: 300)
        #expect(RenditionChoice.closest([preview, grid], to: wanted, atLeast: false, size: { $0 }) == grid)
        #expect(RenditionChoice.closest([preview, grid], to: wanted, atLeast: true, size: { $0 }) == preview)
    }

    /// A thumbnail header read from a damaged cache can claim sides near 2^32.
    @Test func weighsSizesWhoseAreaOverflowsAnInt() {
        let damaged = PixelSize(width: Int(UInt32.max), height: Int(UInt32.max))
        #expect(RenditionChoice.closest([damaged, grid], to: preview, atLeast: false, size: { $0 }) == grid)
        #expect(RenditionChoice.closest([damaged, grid], to: preview, atLeast: true, size: { $0 }) == damaged)
    }
}

extension RenditionChoiceTests {
    /// A resize keeps a stand-in's SDR picture alone: a gain map would be lost.
    @Test func noStandInServesARenditionWithAGainMap() {
        let fit = RenditionSpec(size: grid)
        var gainMap = RenditionSpec(size: preview)
        gainMap.hdr = .gainMap
        #expect(RenditionChoice.canServeAsFinal(fit, for: RenditionSpec(size: preview)))
        #expect(!RenditionChoice.canServeAsFinal(fit, for: gainMap))
        #expect(RenditionChoice.canServeAsFinal(gainMap, for: fit))
    }
}
