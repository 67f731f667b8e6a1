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
            theirs. One line (or JSON event) per change set. Ctrl-C stops (exit status 130).

            Example:
              thumbs watch ~/Pictures
            """)

    @OptionGroup var library: LibraryOptions

    func run() async throws {
        let configuration = try loadOrExit(library.options)
        let (photoLibrary, store) = try library.open()
        let renditions = configuration.renditions.map(\.spec)
        let json = library.json
        try await Interrupt.run {
            let changes = try await photoLibrary.watch()
            print(json ? #"{"event":"watching"}"# : "watching \(photoLibrary.roots.joined(separator: ", ")); Ctrl-C to stop")
            fflush(nil)
            for try await change in changes {
                try await apply(change, renditions: renditions, library: photoLibrary, store: store, json: json)
            }
            // A cancelled stream just ends: say it was an interruption.
            try Task.checkCancellation()
        }
    }

    /// Renders what was inserted or changed, forgets what was removed, and says so.
    private func apply(_ change: ChangeDetails, renditions: [RenditionSpec], library: PhotoLibrary,
                       store: ThumbnailStore, json: Bool) async throws {
        let removed = change.removedIndexes.map { change.before[$0].id }
        for id in removed { try await store.removeThumbnails(of: id) }
        try await store.removeMetadata(of: removed)
        var rendered = 0, failed: [String] = []
        for asset in change.assets.values where !asset.isVideo {
            do {
                let thumbnails = try await library.renderer.render(asset.path, specs: renditions, priority: .batch)
                let keys = renditions.map { ThumbnailKey(assetID: asset.id, fingerprint: asset.fingerprint, rendition: $0) }
                try await store.putThumbnails(Array(zip(keys, thumbnails)).map { (key: $0.0, thumbnail: $0.1) })
                rendered += 1
            } catch let error as ImagingError {
                failed.append("\(asset.relativePath): \(error.kind.rawValue)")
                if !error.kind.isTransient {
                    try await store.recordFailures([(asset.id, asset.fingerprint, FailureRecord(error))])
                }
            }
        }
        if json {
            let fields: [String: Any] = ["event": "changes", "inserted": change.insertedIndexes.count,
                                         "removed": removed.count, "changed": change.changedIndexes.count,
                                         "rendered": rendered, "failed": failed]
            let data = (try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys])) ?? Data()
            print(String(decoding: data, as: UTF8.self))
        } else {
            print("\(change): \(rendered) rendered" + (failed.isEmpty ? "" : ", failed: \(failed.joined(separator: "; "))"))
        }
        fflush(nil)
    }
}
