import ThumbsCore
/// What `thumbs stats` shows.
public struct StoreStatistics: Sendable, Hashable {
    public var thumbnails: Int
    /// Bytes of thumbnails (keys and records) counted against the budget.
    public var liveBytes: ByteCount
    public var budget: ByteCount
    public var metadataEntries: Int
    public var failures: Int
    public var hits: Int64
    public var misses: Int64
    public var pageSize: Int
    public var pagesUsed: Int
    public var mapSize: ByteCount
}
