import ArgumentParser
import Foundation
import Thumbs

struct CompactCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compact", abstract: "Give the cache's free space back to the file system.",
        discussion: "No other process may use the cache meanwhile.\n\nExample:\n  thumbs compact")

    @OptionGroup var cache: CacheOptions

    func run() async throws {
        let path = try cache.configuration().path
        let report = try await cache.perform { try ThumbnailStore.compact(path: path) }
        cache.emit(
            ["bytesBefore": report.bytesBefore, "bytesAfter": report.bytesAfter],
            text: "compacted \(ByteCount(report.bytesBefore)) to \(ByteCount(report.bytesAfter))")
    }
}
