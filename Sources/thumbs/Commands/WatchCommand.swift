import ArgumentParser
import Foundation
import Thumbs

struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Keep the cache in sync with the library while running.",
        discussion: """
            Watches the library folders (inotify); each burst of changes is coalesced, then \
            inserted and changed photos get every rendition of config.json and removed ones lose \
            theirs. One line (or JSON event) per change set. A file still being copied in is \
            listed once it is readable and rendered again when it settles. Ctrl-C stops (exit \
            status 130).

            Example:
              thumbs watch ~/Pictures
            """)

    @OptionGroup var library: LibraryOptions

    func run() async throws {
        let opened = try library.open()
        let photoLibrary = opened.library, store = opened.store
        let job = WarmJob(
            store: store, renderer: opened.renderer, renditions: opened.configuration.renditions.map(\.spec))
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
        let removed = change.removedAssets.map(\.id)
        for id in removed { try await job.store.removeThumbnails(of: id) }
        try await job.store.removeMetadata(of: removed)
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
