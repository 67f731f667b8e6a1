import ArgumentParser
import Foundation
import Thumbs

struct ContactSheetCommand: AsyncParsableCommand, DecodesFiles {
    static let configuration = CommandConfiguration(
        commandName: "contact-sheet",
        abstract: "Compose cached thumbnails of an album or a day into one image.",
        discussion: """
            ALBUM is a folder album (as `thumbs albums` names it) and DAY a date such as \
            2022-02-16; without either, the whole library, newest first. Only thumbnails already \
            in the cache (the first rendition of config.json) are used: run `thumbs warm` first.

            Example:
              thumbs contact-sheet phone -o sheet.jpg
            """)

    @Argument(help: ArgumentHelp("A folder album or a day (YYYY-MM-DD).", valueName: "ALBUM|DAY"))
    var selector: String?

    @Option(name: .shortAndLong, help: ArgumentHelp("Where to write the sheet (JPEG).", valueName: "FILE"))
    var output: String

    @Option(help: "Thumbnails per row.")
    var across = 8

    @Option(help: "At most this many thumbnails.")
    var limit = 200

    @OptionGroup var library: LibraryOptions

    func run() async throws {
        let opened = try await library.open()
        guard let rendition = opened.configuration.renditions.first?.spec else {
            throw CommandFailure.usage("the configuration has no rendition")
        }
        let photoLibrary = opened.library, store = opened.store
        let chosen = try await photoLibrary.fetchAssets().filter(matches)
        var thumbnails: [Thumbnail] = []
        var missing = 0
        for asset in chosen where thumbnails.count < limit {
            let key = ThumbnailKey(assetID: asset.id, fingerprint: asset.fingerprint, rendition: rendition)
            if let stored = try store.thumbnail(for: key) { thumbnails.append(stored.thumbnail) } else { missing += 1 }
        }
        guard !thumbnails.isEmpty else {
            throw CommandFailure.usage(
                "nothing cached for \(selector ?? "the library") (\(chosen.count) photos): run thumbs warm first"
            )
        }
        let across = across
        // The sheet is made of Thumbs' own thumbnails from the cache, in this process, on a thread
        // of its own (a long libvips call never blocks a cooperative thread).
        let sheet = try await BlockingThreadPool(name: "thumbs-sheet", threadCount: 1).run { [thumbnails] in
            try ContactSheet.compose(thumbnails, across: across)
        }
        try Data(sheet.bytes).write(to: URL(fileURLWithPath: output))
        print(
            "\(output.escapedForTerminal): \(thumbnails.count) thumbnails, \(sheet.pixelSize)"
                + (missing > 0 ? "; \(missing) photos not in the cache yet (run thumbs warm)" : ""))
        try await store.flushAccessTimes()
    }

    private func matches(_ asset: Asset) -> Bool {
        guard let selector else { return true }
        if asset.day().description == selector { return true }
        return asset.albumTitle == selector
    }
}
