import ArgumentParser
import Foundation
import Thumbs
import ThumbsFreedesktop

struct WatchCommand: AsyncParsableCommand, DecodesFiles {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Keep the cache in sync with the library while running.",
        discussion: """
            Watches the library folders (inotify); each burst of changes is coalesced, then \
            inserted and changed photos get every rendition of config.json and removed ones lose \
            theirs. One line (or JSON event) per change set. A file still being copied in is \
            listed once it is readable and rendered again when it settles. Ctrl-C stops (exit \
            status 130). With --freedesktop (or --freedesktop-only) the desktop's thumbnail \
            cache is kept in sync too, as thumbs warm --freedesktop writes it.

            Examples:
              thumbs watch ~/Pictures
              thumbs watch --freedesktop ~/Pictures
            """)

    @OptionGroup var library: LibraryOptions

    @OptionGroup(title: "Desktop thumbnail cache") var desktop: DesktopCacheOptions

    func run() async throws {
        let opened = try await library.open(
            opensStore: !desktop.freedesktopOnly, outputs: desktop.cache.map { [$0] } ?? [])
        let photoLibrary = opened.library
        let job = WarmJob(
            renderer: photoLibrary.renderer,
            outputs: desktop.warmOutputs(store: opened.store, renditions: opened.configuration.renditions.map(\.spec)))
        let json = library.json
        try await Interrupt.run {
            let changes = try await photoLibrary.watch()
            print(
                json
                    ? JSONEvent.watching.line
                    : "watching \(photoLibrary.roots.joined(separator: ", ").escapedForTerminal); Ctrl-C to stop")
            fflush(nil)
            for try await change in changes {
                let report = try await job.apply(change)
                if json {
                    print(JSONEvent.changes(report).line)
                } else {
                    let failures = report.failureLines
                    print(
                        "\(change): \(report.progress.rendered) rendered"
                            + (failures.isEmpty
                                ? "" : ", failed: \(failures.joined(separator: "; ").escapedForTerminal)"))
                }
                fflush(nil)
            }
            // A cancelled stream just ends: say it was an interruption.
            try Task.checkCancellation()
        }
    }
}
