import Foundation
import ThumbsCore
import ThumbsCoreTestSupport
@testable import ThumbsStore
import ThumbsSupport

/// Thumbnails and keys for store tests.
enum StoreFixtures {
    static let grid = RenditionSpec(size: PixelSize(width: 256, height: 256), contentMode: .aspectFill)
    static let preview = RenditionSpec(size: PixelSize(width: 1024, height: 1024))

    static func key(_ asset: String, version: Int64 = 1, rendition: RenditionSpec = grid) -> ThumbnailKey {
        ThumbnailKey(
            assetID: asset, fingerprint: FileFingerprint(size: 1000, modificationTimeNanoseconds: version),
            rendition: rendition)
    }

    /// `count` bytes, distinct per `seed`.
    static func thumbnail(_ seed: Int, count: Int = 20_000) -> Thumbnail {
        Thumbnail(
            bytes: (0..<count).map { UInt8(truncatingIfNeeded: seed &* 13 &+ $0) },
            pixelSize: PixelSize(width: 256, height: 256), format: .jpeg)
    }
}

/// A clock tests move by hand.
final class TestClock: Sendable {
    private let now = Locked(Date(timeIntervalSince1970: 1_800_000_000))

    var date: Date { now.value }
    func advance(seconds: TimeInterval) { now.withLock { $0 += seconds } }
}

extension StoreConfiguration {
    /// A configuration for a cache in `folder`, reading time from `clock`.
    static func testing(
        _ folder: TemporaryFolder, budget: Int64 = 1 << 30, clock: TestClock = TestClock(),
        initialMapSize: Int = 16 << 20
    ) -> StoreConfiguration {
        var configuration = StoreConfiguration(
            path: folder.path + "/cache", budget: ByteCount(budget),
            initialMapSize: initialMapSize)
        configuration.clock = { clock.date }
        return configuration
    }
}
