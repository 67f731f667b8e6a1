import ArgumentParser
import Foundation
import SystemPackage
import Thumbs

/// What the library commands share: the configuration, the roots, the store, the library.
struct LibraryOptions: ParsableArguments {
    @Argument(help: ArgumentHelp("Library folders (default: the roots of the configuration).", valueName: "ROOT"))
    var roots: [String] = []

    @Flag(help: "Print one JSON document instead of a table.")
    var json = false

    @OptionGroup var options: ConfigurationOptions

    /// What a library command works on.
    struct Opened {
        let configuration: ThumbsConfiguration
        let library: PhotoLibrary
        let store: ThumbnailStore
        var renderer: any ThumbnailRendering { library.renderer }
    }

    /// Opens the metadata cache and the library, or ends the command with a clear line. With
    /// `requireRoots` false, roots that do not exist are left out instead.
    func open(requireRoots: Bool = true) async throws -> Opened {
        let opened = try await open(requireRoots: requireRoots, opensStore: true)
        return Opened(configuration: opened.configuration, library: opened.library, store: opened.store!)
    }

    /// The library, with the store (its metadata cache) only when `opensStore`: a command that
    /// writes elsewhere than the cache leaves it untouched. With a `shard`, the library is that
    /// shard's part, and `{shard}` in the cache path is its index.
    ///
    /// With isolation "none", every decode is noted in the cache's decode journal while it runs;
    /// the decodes a process that used the cache before died in are remembered as `crashed`
    /// failures first, each with a line on stderr. Without the store, the journal is kept in Thumbs' state folder and the
    /// failures go to `outputs` (the desktop's cache), when there are any.
    func open(
        requireRoots: Bool = true, opensStore: Bool, shard: LibraryShard? = nil, outputs: [any WarmOutput] = []
    ) async throws -> (configuration: ThumbsConfiguration, library: PhotoLibrary, store: ThumbnailStore?) {
        let configuration = try loadOrExit(options)
        var folders = roots.isEmpty ? configuration.library.roots.map(configuration.resolve) : roots
        if !requireRoots { folders = folders.filter { FileManager.default.fileExists(atPath: $0) } }
        for folder in folders where !FileManager.default.fileExists(atPath: folder) {
            CommandFailure.usage("\(folder): no such folder (set library.roots in config.json, or name one)").exit()
        }
        CommandLog.logger.debug("library roots: \(folders.joined(separator: ", "))")
        var store: ThumbnailStore?
        var journal: DecodeJournalFile?
        if opensStore {
            var storeConfiguration = configuration.store(path: options.cache)
            storeConfiguration.path = ShardOptions.cachePathOrExit(storeConfiguration.path, shard: shard)
            CommandLog.logger.debug("cache: \(storeConfiguration.path), budget \(storeConfiguration.budget)")
            do {
                let opened = try ThumbnailStore(configuration: storeConfiguration)
                journal = try await Self.openJournal(
                    in: DecodeJournalFile.directory(ofCache: storeConfiguration.path), for: configuration
                ) {
                    try await opened.recordCrashedDecodes($0)
                }
                store = opened
            } catch {
                CommandFailure.cache(storeConfiguration.path, error).exit()
            }
        } else if !outputs.isEmpty {
            journal = try await Self.openJournal(in: Self.stateJournalDirectory(), for: configuration) { crashed in
                for file in crashed.compactMap(Asset.init(crashedDecodeAt:)) {
                    for output in outputs { try await output.recordFailure(FailureRecord(.crashed), of: file) }
                }
            }
        }
        let renderer = rendererOrExit(configuration, journal: journal)
        let library = PhotoLibrary(
            roots: folders, includeHidden: configuration.library.includeHidden,
            renderer: renderer, store: store, shard: shard)
        return (configuration, library, store)
    }

    /// The journal of this process's decodes in `directory`, once what the journals of dead
    /// processes there hold is recorded as failures by `record` (and only then removed). Without
    /// one (the folder is read-only, or full), the command goes on, and says so.
    ///
    /// Only a renderer in this process notes its decodes (isolation "none"): with render workers,
    /// a decoder's fault costs its worker, and no journal is kept; the leftovers of an earlier
    /// run's are recorded all the same.
    private static func openJournal(
        in directory: FilePath, for configuration: ThumbsConfiguration, record: ([ImageLocation]) async throws -> Void
    ) async throws -> DecodeJournalFile? {
        let leftovers = DecodeJournalFile.leftovers(in: directory)
        try await record(leftovers.crashed)
        leftovers.discard()
        for location in leftovers.crashed {
            printError("\(location): \(ImagingError.crashed)")
        }
        guard configuration.isolation == .none else { return nil }
        do {
            return try DecodeJournalFile(directory: directory)
        } catch {
            printError("no decode journal (\(error)): a file that crashes a decoder will crash the next run too")
            return nil
        }
    }

    /// Where the decode journal is kept when no cache of Thumbs' is opened:
    /// `$XDG_STATE_HOME/thumbs/decoding`, else `~/.local/state/thumbs/decoding`.
    private static func stateJournalDirectory() -> FilePath {
        let environment = ProcessInfo.processInfo.environment
        let state =
            environment["XDG_STATE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? (NSHomeDirectory() + "/.local/state")
        try? FileManager.default.createDirectory(atPath: state + "/thumbs", withIntermediateDirectories: true)
        return FilePath(state + "/thumbs/decoding")
    }

    func printJSON<T: Encodable>(_ value: T) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        print(String(decoding: try encoder.encode(value), as: UTF8.self))
    }

    /// Enumerates the library into albums, counting what came from the metadata cache; issues
    /// are reported on the way.
    func albums(of library: PhotoLibrary) async throws -> (builder: AlbumBuilder, fromCache: Int, read: Int) {
        var builder = AlbumBuilder()
        var fromCache = 0, read = 0
        var issues: [LibraryIssue] = []
        for try await batch in library.assets() {
            builder.add(batch)
            fromCache += batch.fromCache
            read += batch.inspected
            issues += batch.issues
        }
        report(issues)
        return (builder, fromCache, read)
    }

    /// Issues go to stderr, one line each, so the table or JSON on stdout stays clean.
    func report(_ issues: [LibraryIssue]) {
        guard !CommandLog.isQuiet else { return }
        for issue in issues { printError("\(issue)") }
    }
}
