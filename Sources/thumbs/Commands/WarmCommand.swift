import ArgumentParser
import Foundation
import Logging
import Thumbs
import ThumbsFreedesktop

struct WarmCommand: AsyncParsableCommand, DecodesFiles {
    static let configuration = CommandConfiguration(
        commandName: "warm",
        abstract: "Render every configured rendition of the library into the cache.",
        discussion: """
            Fresh thumbnails are skipped, so a second run over an unchanged library decodes \
            nothing; a file that failed before is skipped until it changes. Ctrl-C stops cleanly: \
            what was rendered is committed (exit status 130) and the next run resumes.

            On a terminal a progress line is kept up to date; otherwise (or with --json) progress \
            is printed as JSON lines.

            With --freedesktop, each photo's thumbnails also go into the desktop's thumbnail \
            cache (~/.cache/thumbnails, the freedesktop.org standard that GNOME Files, Nemo, \
            Caja, Thunar, Dolphin and GIMP read), made from the same decode; with \
            --freedesktop-only, only there. Current desktop thumbnails are skipped; a file that \
            cannot be read gets the standard's failure entry.

            With --shard K/N, only the assets whose id hashes to shard K of N are warmed (the \
            others are listed but not read), into the cache named by --cache, where {shard} \
            stands for K; with --shards N, K comes from JOB_COMPLETION_INDEX or \
            SLURM_ARRAY_TASK_ID, so that one command line serves every task of a Kubernetes \
            Indexed Job or a Slurm job array. `thumbs merge` then combines the shards' caches \
            (docs/SCALING.md).

            A file that was moved, renamed or copied keeps its thumbnails: the cache knows it \
            by its content (size, modification time and its first and last bytes) and gives \
            the new path the old one's entries without a render. What is gone from the library \
            since the last warm is forgotten, in the cache and the desktop's; with \
            --keep-missing, nothing is (a library on a disk that is sometimes not mounted). A \
            root that holds no file at all where the last warm found some is taken for such a \
            disk, and nothing of it is forgotten.

            With --rebuild the cache is first moved aside (to CACHE.damaged-TIME, as thumbs reset \
            does) and the library is warmed into a new one: the remedy for a damaged cache.

            Exit status: 0 all fresh or rendered, 1 some files failed (now, or before and \
            unchanged since), 2 usage or configuration error, 3 cache error, 130 interrupted.

            Examples:
              thumbs warm ~/Pictures
              thumbs warm --freedesktop-only --freedesktop-size normal --freedesktop-size large ~/Pictures
              thumbs warm --shards 4 --cache '/scratch/thumbs-{shard}' /srv/photos
            """)

    @OptionGroup var library: LibraryOptions

    @OptionGroup(title: "Desktop thumbnail cache") var desktop: DesktopCacheOptions

    @OptionGroup(title: "Shards") var sharding: ShardOptions

    @Flag(help: "Move the cache aside first (it is kept, renamed) and warm into a new one.")
    var rebuild = false

    @Flag(help: "Keep what the cache holds of files gone from the library since the last warm.")
    var keepMissing = false

    func run() async throws {
        if rebuild && desktop.freedesktopOnly {
            throw CommandFailure.usage("--rebuild moves Thumbs' cache aside, which --freedesktop-only does not use")
        }
        let shard = try sharding.resolve()
        if rebuild {
            let path = try library.storeConfiguration(shard: shard).path
            do {
                let movedTo = try ThumbnailStore.moveAside(path: path)
                if !CommandLog.isQuiet { printError("moved \(path) to \(movedTo); warming a new cache") }
            } catch {
                throw CommandFailure.cache(path, error)
            }
        }
        let opened = try await library.open(
            opensStore: !desktop.freedesktopOnly, shard: shard, outputs: desktop.cache.map { [$0] } ?? [])
        let renditions = opened.configuration.renditions.map(\.spec)
        let job = WarmJob(
            renderer: opened.library.renderer,
            outputs: desktop.warmOutputs(store: opened.store, renditions: renditions))
        let display = ProgressDisplay(json: library.json || isatty(STDOUT_FILENO) == 0, shard: shard)
        if opened.store != nil {
            CommandLog.logger.debug("renditions: \(renditions.map(\.description).joined(separator: ", "))")
        }
        let photoLibrary = opened.library
        let summary = try await Interrupt.run(onInterrupt: {
            display.finish(display.last ?? WarmJob.Progress(), interrupted: true)
        }) {
            try await keepMissing
                ? job.run(over: photoLibrary) { display.show($0) }
                : job.run(forgettingGoneFrom: photoLibrary) { display.show($0) }
        }
        CommandLog.logger.debug("warm: \(summary)")
        display.finish(summary, interrupted: false)
        // Files skipped for a failure remembered from before are failures still: exit status 1
        // until they are mended or removed.
        let failed = summary.failed + summary.skippedFailures
        if failed > 0 { throw CommandFailure.someFailed(failed) }
    }
}
