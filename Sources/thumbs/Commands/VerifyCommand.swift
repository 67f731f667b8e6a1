import ArgumentParser
import Foundation
import Thumbs

struct VerifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify", abstract: "Check that the cache's indexes and totals agree.",
        discussion: "Exit status 3 when they do not.\n\nExample:\n  thumbs verify")

    @OptionGroup var cache: CacheOptions

    func run() async throws {
        let store = try cache.open()
        let report = try await cache.perform { try store.verify() }
        cache.emit(
            ["thumbnails": report.thumbnails, "liveBytes": report.liveBytes, "problems": report.problems],
            text: report.isConsistent
                ? "consistent: \(report.thumbnails) thumbnails, \(ByteCount(report.liveBytes))"
                : report.problems.joined(separator: "\n"))
        if !report.isConsistent { throw CommandFailure.cache("\(report.problems.count) problem(s) found") }
    }
}
