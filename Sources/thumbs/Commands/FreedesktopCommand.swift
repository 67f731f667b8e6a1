import ArgumentParser
import Foundation
import Logging
import Thumbs
import ThumbsFreedesktop

struct FreedesktopCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "freedesktop",
        abstract: "Look after the desktop's thumbnail cache (~/.cache/thumbnails), which file managers read.",
        discussion: """
            thumbs warm --freedesktop and thumbs watch --freedesktop write it.
            """,
        subcommands: [FreedesktopCleanCommand.self])
}

struct FreedesktopCleanCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clean",
        abstract: "Remove desktop thumbnails of files under the roots that were removed or changed.",
        discussion: """
            The cleanup of the freedesktop.org thumbnail standard, limited to files under the \
            given roots (default: the roots of the configuration): every thumbnail and failure \
            entry, of any program, whose file no longer exists or has changed since goes. With \
            --older-than, so do those not read for that many days. Thumbnails of other files are \
            left alone; the files under the roots are only looked up, never opened.

            Example:
              thumbs freedesktop clean --older-than 90 ~/Pictures
            """)

    @Argument(help: ArgumentHelp("Folders whose files' thumbnails are examined.", valueName: "ROOT"))
    var roots: [String] = []

    @Option(help: ArgumentHelp("Also remove thumbnails not read for this many days.", valueName: "DAYS"))
    var olderThan: Int?

    @OptionGroup var folder: DesktopFolderOption

    @Flag(help: "Print one JSON document.")
    var json = false

    @OptionGroup var options: ConfigurationOptions

    func validate() throws {
        if let olderThan, olderThan < 0 { throw ValidationError("--older-than takes a number of days, 0 or more") }
    }

    func run() async throws {
        let configuration = try options.load()
        let folders = roots.isEmpty ? configuration.library.roots.map(configuration.resolve) : roots
        let cache = DesktopThumbnailCache(folder: folder.path)
        CommandLog.logger.debug("desktop thumbnails: \(cache.folder); roots: \(folders.joined(separator: ", "))")
        let unusedFor = olderThan.map { Duration.seconds($0 * 86_400) }
        // Many small reads and stats: off the cooperative threads.
        let summary = await Task.detached { cache.clean(roots: folders, unusedFor: unusedFor) }.value
        if json {
            print(JSONLine.encode(CleanReport(summary)))
        } else {
            print(
                "\(summary.examined) desktop thumbnails examined: \(summary.removed) removed "
                    + "(\(summary.sourceGone) of removed files, \(summary.sourceChanged) of changed files, "
                    + "\(summary.unused) unused, \(summary.leftOvers) left half-written), "
                    + "\(summary.bytesFreed) bytes freed")
        }
    }

    /// The summary as a JSON line (docs/EVENTS.md).
    private struct CleanReport: Encodable {
        let examined: Int, sourceGone: Int, sourceChanged: Int, unused: Int, leftOvers: Int, removed: Int
        let bytesFreed: UInt64

        init(_ summary: DesktopThumbnailCache.CleanSummary) {
            examined = summary.examined
            sourceGone = summary.sourceGone
            sourceChanged = summary.sourceChanged
            unused = summary.unused
            leftOvers = summary.leftOvers
            removed = summary.removed
            bytesFreed = summary.bytesFreed
        }
    }
}
