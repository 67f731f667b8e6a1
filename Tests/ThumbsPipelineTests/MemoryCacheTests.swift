import Foundation
import Testing
import ThumbsCore
@testable import ThumbsPipeline
import ThumbsStore

@Suite struct MemoryCacheTests {
    private func key(_ asset: String, _ side: Int, _ mode: ContentMode = .aspectFit) -> ThumbnailKey {
        ThumbnailKey(
            assetID: asset, fingerprint: FileFingerprint(size: 1, modificationTimeNanoseconds: 1),
            rendition: RenditionSpec(size: PixelSize(width: side, height: side), contentMode: mode))
    }

    private func thumbnail(_ bytes: Int, _ side: Int = 100) -> Thumbnail {
        Thumbnail(
            bytes: [UInt8](repeating: 1, count: bytes), pixelSize: PixelSize(width: side, height: side), format: .jpeg)
    }

    @Test func evictsLeastRecentlyUsedPastItsCost() {
        let cache = MemoryCache(costLimit: 3_000)
        for index in 0..<3 { cache.insert(thumbnail(1_000), for: key("a\(index)", 100)) }
        _ = cache.thumbnail(for: key("a0", 100))
        cache.insert(thumbnail(1_000), for: key("a3", 100))
        #expect(cache.contains(key("a0", 100)) && !cache.contains(key("a1", 100)))
        #expect(cache.cost == 3_000)
    }

    @Test func hitsUnderTheLimitDoNotGrowWithoutBound() {
        let cache = MemoryCache(costLimit: 1 << 20)
        for index in 0..<10 { cache.insert(thumbnail(100), for: key("a\(index)", 100)) }
        for round in 0..<100_000 { _ = cache.thumbnail(for: key("a\(round % 10)", 100)) }
        #expect(cache.orderLength < 2_000)
    }

    @Test func onlyWholePictureRenditionsServeAsFinal() {
        let cache = MemoryCache(costLimit: 1 << 20)
        cache.insert(thumbnail(100, 512), for: key("a", 512, .aspectFill))
        #expect(
            cache.closest(
                to: key("a", 300), size: PixelSize(width: 300, height: 300), atLeast: true, servingFinal: true) == nil)
        #expect(
            cache.closest(to: key("a", 300), size: PixelSize(width: 300, height: 300), atLeast: false) != nil,
            "still a fine degraded stand-in")
        cache.insert(thumbnail(100, 512), for: key("a", 512, .aspectFit))
        #expect(
            cache.closest(
                to: key("a", 300), size: PixelSize(width: 300, height: 300), atLeast: true, servingFinal: true)?
                .key.rendition.contentMode == .aspectFit)
    }
}
