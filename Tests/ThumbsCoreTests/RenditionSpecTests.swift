import Testing
import ThumbsCore

@Suite struct RenditionSpecTests {
    /// The description is part of cache keys and file names: an SDR spec's stays what it was.
    @Test func aGainMapIsNamedInTheDescriptionAndOnlyAJPEGCarriesOne() {
        var spec = RenditionSpec(size: PixelSize(width: 256, height: 256), contentMode: .aspectFill)
        #expect(spec.description == "256x256-fill-q82.jpeg" && !spec.carriesGainMap)
        spec.hdr = .gainMap
        #expect(spec.description == "256x256-fill-q82-gainmap.jpeg" && spec.carriesGainMap)
        spec.format = .png
        #expect(!spec.carriesGainMap)
    }
}
