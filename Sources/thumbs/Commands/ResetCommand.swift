import ArgumentParser
import Foundation
import Thumbs

struct ResetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reset", abstract: "Move the cache aside and start a new, empty one.",
        discussion: """
            The remedy for a damaged cache (exit status 3 from any command, or a 'damaged' \
            problem from thumbs verify): the cache folder is renamed to CACHE.damaged-TIME, \
            nothing is deleted, and the next command starts a new cache, which thumbs warm \
            fills again. No other process may be using the cache.

            Example:
              thumbs reset && thumbs warm
            """)

    @OptionGroup var cache: CacheOptions

    func run() async throws {
        let path = try cache.configuration().path
        let movedTo = try await cache.perform { try ThumbnailStore.moveAside(path: path) }
        // Opening makes the new cache at once, so the command ends with a usable one.
        _ = try cache.open()
        cache.emit(
            ["movedTo": movedTo, "cache": path], text: "moved \(path) to \(movedTo); \(path) is a new, empty cache")
    }
}
