import ArgumentParser
import Foundation
import Thumbs

struct EvictCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "evict", abstract: "Evict least recently used thumbnails down to a size.",
        discussion:
            "Without --to, down to the low-water mark (90 % of the budget).\n\nExample:\n  thumbs evict --to 500MB")

    @Option(help: ArgumentHelp("Size to evict down to, such as 500MB or 1GiB.", valueName: "SIZE"))
    var to: String?

    @OptionGroup var cache: CacheOptions

    func validate() throws {
        if let to, ByteCount(parsing: to) == nil {
            throw ValidationError("--to must be a size such as 500MB, at most 8 EiB, not \"\(to)\"")
        }
    }

    func run() async throws {
        let store = try cache.open()
        let (evicted, left) = try await cache.perform {
            (try await store.evict(downTo: to.flatMap(ByteCount.init(parsing:))), try store.statistics().liveBytes)
        }
        cache.emit(["evicted": evicted, "liveBytes": left.bytes], text: "evicted \(evicted) thumbnails; \(left) left")
    }
}
