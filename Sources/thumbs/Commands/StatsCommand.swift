import ArgumentParser
import Foundation
import Thumbs

struct StatsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats", abstract: "Show the cache's entries, bytes, pages, hits and misses.",
        discussion: "Example:\n  thumbs stats --cache ~/.cache/thumbs")

    @OptionGroup var cache: CacheOptions

    func run() async throws {
        let store = try cache.open()
        let stats = try await cache.perform { try store.statistics() }
        cache.emit(
            [
                "thumbnails": stats.thumbnails, "liveBytes": stats.liveBytes.bytes, "budget": stats.budget.bytes,
                "metadataEntries": stats.metadataEntries, "failures": stats.failures, "hits": stats.hits,
                "misses": stats.misses, "pageSize": stats.pageSize, "pagesUsed": stats.pagesUsed,
                "mapSize": stats.mapSize.bytes,
            ],
            text: """
                thumbnails  \(stats.thumbnails) (\(stats.liveBytes) of a \(stats.budget) budget)
                metadata    \(stats.metadataEntries) files
                failures    \(stats.failures) remembered
                hits        \(stats.hits), misses \(stats.misses)
                pages       \(stats.pagesUsed) of \(stats.pageSize) bytes, map \(stats.mapSize)
                """)
    }
}
