import ArgumentParser
import Foundation
import Thumbs

/// Options of the commands that work on the cache alone.
struct CacheOptions: ParsableArguments {
    @Flag(help: "Print one JSON document instead of text.")
    var json = false

    @OptionGroup var options: ConfigurationOptions

    func configuration() throws -> StoreConfiguration {
        try loadOrExit(options).store(path: options.cache)
    }

    /// Opens the cache, or ends the command with exit status 3.
    func open() throws -> ThumbnailStore {
        let configuration = try configuration()
        do {
            return try ThumbnailStore(configuration: configuration)
        } catch {
            CommandFailure.cache("cache \(configuration.path): \(error)").exit()
        }
    }

    /// Runs `body`; a store failure ends the command with status 3.
    func orExit<T>(_ body: () async throws -> T) async -> T {
        do {
            return try await body()
        } catch {
            CommandFailure.cache("\(error)").exit()
        }
    }

    func emit(_ fields: [String: Any], text: String) {
        if json {
            let data = (try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys, .prettyPrinted])) ?? Data()
            print(String(decoding: data, as: UTF8.self))
        } else {
            print(text)
        }
    }
}

struct StatsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats", abstract: "Show the cache's entries, bytes, pages, hits and misses.",
        discussion: "Example:\n  thumbs stats --cache ~/.cache/thumbs")

    @OptionGroup var cache: CacheOptions

    func run() async throws {
        let store = try cache.open()
        let stats = await cache.orExit { try store.statistics() }
        cache.emit([
            "thumbnails": stats.thumbnails, "liveBytes": stats.liveBytes.bytes, "budget": stats.budget.bytes,
            "metadataEntries": stats.metadataEntries, "failures": stats.failures, "hits": stats.hits,
            "misses": stats.misses, "pageSize": stats.pageSize, "pagesUsed": stats.pagesUsed, "mapSize": stats.mapSize.bytes,
        ], text: """
            thumbnails  \(stats.thumbnails) (\(stats.liveBytes) of a \(stats.budget) budget)
            metadata    \(stats.metadataEntries) files
            failures    \(stats.failures) remembered
            hits        \(stats.hits), misses \(stats.misses)
            pages       \(stats.pagesUsed) of \(stats.pageSize) bytes, map \(stats.mapSize)
            """)
    }
}

struct EvictCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "evict", abstract: "Evict least recently used thumbnails down to a size.",
        discussion: "Without --to, down to the low-water mark (90 % of the budget).\n\nExample:\n  thumbs evict --to 500MB")

    @Option(help: ArgumentHelp("Size to evict down to, such as 500MB or 1GiB.", valueName: "SIZE"))
    var to: String?

    @OptionGroup var cache: CacheOptions

    func validate() throws {
        if let to, ByteCount(parsing: to) == nil { throw ValidationError("--to must be a size such as 500MB, not \"\(to)\"") }
    }

    func run() async throws {
        let store = try cache.open()
        let (evicted, left) = await cache.orExit {
            (try await store.evict(downTo: to.flatMap(ByteCount.init(parsing:))), try store.statistics().liveBytes)
        }
        cache.emit(["evicted": evicted, "liveBytes": left.bytes], text: "evicted \(evicted) thumbnails; \(left) left")
    }
}

struct CompactCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compact", abstract: "Give the cache's free space back to the file system.",
        discussion: "No other process may use the cache meanwhile.\n\nExample:\n  thumbs compact")

    @OptionGroup var cache: CacheOptions

    func run() async throws {
        let path = try cache.configuration().path
        let report = await cache.orExit { try ThumbnailStore.compact(path: path) }
        cache.emit(["bytesBefore": report.bytesBefore, "bytesAfter": report.bytesAfter],
                   text: "compacted \(ByteCount(report.bytesBefore)) to \(ByteCount(report.bytesAfter))")
    }
}

struct VerifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify", abstract: "Check that the cache's indexes and totals agree.",
        discussion: "Exit status 3 when they do not.\n\nExample:\n  thumbs verify")

    @OptionGroup var cache: CacheOptions

    func run() async throws {
        let store = try cache.open()
        let report = await cache.orExit { try store.verify() }
        cache.emit(["thumbnails": report.thumbnails, "liveBytes": report.liveBytes, "problems": report.problems],
                   text: report.isConsistent
                       ? "consistent: \(report.thumbnails) thumbnails, \(ByteCount(report.liveBytes))"
                       : report.problems.joined(separator: "\n"))
        if !report.isConsistent { CommandFailure.cache("\(report.problems.count) problem(s) found").exit() }
    }
}
