import Foundation
import ThumbsCore
import ThumbsSupport

/// Where the cache lives and how big it may grow.
///
/// ```swift
/// let store = try ThumbnailStore(configuration: .init(path: "/var/cache/thumbs", budget: ByteCount(parsing: "2 GiB")!))
/// ```
public struct StoreConfiguration: Sendable {
    /// The cache folder (holding LMDB's `data.mdb` and `lock.mdb`).
    public var path: String
    /// Most bytes of thumbnails (keys and records) kept; past it, the least recently used go.
    /// Default: ``defaultBudget``.
    public var budget: ByteCount
    /// Eviction stops once the cache is down to this fraction of ``budget``, so that it does not
    /// run again on the very next write. Default: 0.9.
    public var lowWaterFraction: Double
    /// How coarse recorded access times are, in seconds: a thumbnail read again within the same
    /// interval costs no write. Default: 60.
    public var accessTimeResolution: Int
    /// LMDB map size at first open; it doubles whenever it fills. Default: 256 MiB.
    public var initialMapSize: Int
    /// The clock access and creation times are read from (tests move it).
    package var clock: @Sendable () -> Date

    /// 2 GiB.
    public static let defaultBudget = ByteCount(2 << 30)

    public init(
        path: String, budget: ByteCount = defaultBudget, lowWaterFraction: Double = 0.9,
        accessTimeResolution: Int = 60, initialMapSize: Int = 256 << 20
    ) {
        self.path = path
        self.budget = budget
        self.lowWaterFraction = min(1, max(0, lowWaterFraction))
        self.accessTimeResolution = max(1, accessTimeResolution)
        self.initialMapSize = initialMapSize
        clock = { Date() }
    }

    var lowWaterMark: Int64 { Int64(Double(budget.bytes) * lowWaterFraction) }
}
