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
            store: opened.store, renderer: photoLibrary.renderer,
            renditions: opened.configuration.renditions.map(\.spec), outputs: desktop.cache.map { [$0] } ?? [])
        let json = library.json
        try await Interrupt.run {
            let changes = try await photoLibrary.watch()
            print(
                json
                    ? #"{"event":"watching"}"#
                    : "watching \(photoLibrary.roots.joined(separator: ", ").escapedForTerminal); Ctrl-C to stop")
            fflush(nil)
            for try await change in changes {
                try await apply(change, job: job, json: json)
            }
            // A cancelled stream just ends: say it was an interruption.
            try Task.checkCancellation()
        }
    }

    /// Forgets what was removed, warms what was inserted or changed (the warm job's render,
    /// store and failure memo), and says so.
    private func apply(_ change: ChangeDetails, job: WarmJob, json: Bool) async throws {
        let removed = change.removedAssets
        try await job.forget(removed)
        let failed = LockedValue<[String]>([])
        let summary = try await job.run(change.insertedAndChangedAssets) { progress in
            if let failure = progress.failure {
                failed.withLock { $0.append("\(failure.path): \(failure.error.kind.rawValue)") }
            }
        }
        let failures = failed.withLock { $0 }
        if json {
            let fields: [String: Any] = [
                "event": "changes", "inserted": change.insertedIndexes.count,
                "removed": removed.count, "changed": change.changedIndexes.count,
                "rendered": summary.rendered, "failed": failures,
            ]
            print(JSONLine.encode(fields))
        } else {
            print(
                "\(change): \(summary.rendered) rendered"
                    + (failures.isEmpty ? "" : ", failed: \(failures.joined(separator: "; ").escapedForTerminal)"))
        }
        fflush(nil)
    }
}
