import ArgumentParser
import Foundation
import Thumbs
import ThumbsSupport

struct MergeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Combine caches (the shards of a warm, say) into one.",
        discussion: """
            Thumbnails, metadata and remembered failures of every SOURCE are merged into DEST \
            (created if there is none, its own entries kept). Where two hold the same key, the \
            newer wins, and each asset keeps one version of its file. DEST's budget (from the \
            configuration) holds: past it, the least recently used thumbnails are left out. The \
            sources are only read.

            The merged cache replaces DEST's in one rename: a merge killed at any point leaves \
            DEST as it was. No other process may use DEST meanwhile. A damaged or missing \
            source stops the merge before anything is written, and the message names it.

            Exit status: 0 merged, 2 usage or configuration error, 3 cache error.

            Example:
              thumbs merge /srv/thumbs /scratch/thumbs-0 /scratch/thumbs-1 /scratch/thumbs-2 /scratch/thumbs-3
            """)

    @Argument(help: ArgumentHelp("The cache to merge into.", valueName: "DEST"))
    var destination: String

    @Argument(help: ArgumentHelp("The caches to merge from.", valueName: "SOURCE"))
    var sources: [String]

    @Flag(help: "Print one JSON document instead of text.")
    var json = false

    @OptionGroup var options: ConfigurationOptions

    func validate() throws {
        guard !sources.isEmpty else { throw ValidationError("name at least one SOURCE cache to merge from") }
        guard options.cache == nil else {
            throw ValidationError("the cache merged into is DEST; --cache does not apply")
        }
    }

    func run() async throws {
        var configuration = try options.load().store(path: destination)
        configuration.path = URL(fileURLWithPath: destination).standardizedFileURL.path
        for source in sources {
            do {
                try ThumbnailStore.checkFile(path: source)
            } catch {
                throw CommandFailure.mergeSource(source, error)
            }
        }
        let started = ContinuousClock.now
        let report: ThumbnailStore.MergeReport
        do {
            report = try ThumbnailStore.merge(into: configuration, from: sources)
        } catch {
            if let source = error.mergeSource { throw CommandFailure.mergeSource(source, error) }
            throw CommandFailure.cache(configuration.path, error)
        }
        let seconds = max(started.duration(to: .now).seconds, 1e-6)
        let rate = Double(report.thumbnails) / seconds
        let megabytesPerSecond = Double(report.liveBytes) / seconds / 1e6
        if json {
            let encoder = JSONEncoder(style: .document)
            let document = Document(
                destination: configuration.path, report: report, seconds: (seconds * 1000).rounded() / 1000,
                thumbnailsPerSecond: rate.rounded())
            print(String(decoding: try encoder.encode(document), as: UTF8.self))
            return
        }
        var text =
            "merged \(report.inputs) caches into \(configuration.path): \(report.thumbnails) thumbnails "
            + "(\(ByteCount(report.liveBytes))), \(report.metadata) metadata records, \(report.failures) failures"
        if report.superseded > 0 { text += "; \(report.superseded) older entries left out" }
        if report.evicted > 0 {
            text += "; \(report.evicted) least recently used left out to fit the budget (\(configuration.budget))"
        }
        if report.unreadable > 0 { text += "; \(report.unreadable) unreadable records left out" }
        text += String(format: "; %.2f s, %.0f thumbnails/s, %.0f MB/s", seconds, rate, megabytesPerSecond)
        print(text)
    }

    /// `thumbs merge --json` (docs/EVENTS.md).
    private struct Document: Encodable {
        let destination: String
        let inputs: Int, thumbnails: Int, liveBytes: Int64, metadata: Int, failures: Int
        let superseded: Int, evicted: Int, unreadable: Int
        /// To a thousandth.
        let seconds: Double
        /// Whole.
        let thumbnailsPerSecond: Double

        init(destination: String, report: ThumbnailStore.MergeReport, seconds: Double, thumbnailsPerSecond: Double) {
            self.destination = destination
            inputs = report.inputs
            thumbnails = report.thumbnails
            liveBytes = report.liveBytes
            metadata = report.metadata
            failures = report.failures
            superseded = report.superseded
            evicted = report.evicted
            unreadable = report.unreadable
            self.seconds = seconds
            self.thumbnailsPerSecond = thumbnailsPerSecond
        }
    }
}
