import ArgumentParser
import Foundation
import Logging
import Thumbs
import ThumbsRendering
import ThumbsSupport

/// What the library commands share: the configuration, the roots, the store, the library.
struct LibraryOptions: ParsableArguments {
    @Argument(help: ArgumentHelp("Library folders (default: the roots of the configuration).", valueName: "ROOT"))
    var roots: [String] = []

    @Flag(help: "Print one JSON document instead of a table.")
    var json = false

    @OptionGroup var options: ConfigurationOptions

    /// The library factory for this command line's configuration, roots and `--cache`.
    func factory(requireRoots: Bool = true, shard: LibraryShard? = nil) throws -> LibraryFactory {
        var factory = LibraryFactory(configuration: try options.load())
        if !roots.isEmpty { factory.roots = roots }
        factory.skipsMissingRoots = !requireRoots
        factory.cachePath = options.cache
        factory.shard = shard
        return factory
    }

    /// Opens the cache and the library; a failure is the command's, with its line. With
    /// `requireRoots` false, roots that do not exist are left out instead. With a `shard`, the
    /// library is that shard's part, and `{shard}` in the cache path is its index.
    func open(requireRoots: Bool = true, shard: LibraryShard? = nil) async throws -> OpenedLibrary {
        let factory = try factory(requireRoots: requireRoots, shard: shard)
        do {
            let opened = try await factory.open(notices: Self.say)
            CommandLog.logger.debug("library roots: \(opened.library.roots.joined(separator: ", "))")
            CommandLog.logger.debug(
                "cache: \(opened.store.configuration.path), budget \(opened.store.configuration.budget)")
            return opened
        } catch {
            try Self.fail(error)
        }
    }

    /// The library, with the cache only when `opensStore`: a command that writes elsewhere
    /// (`outputs`, the desktop's cache) leaves the cache untouched, and crashed decodes are
    /// recorded in `outputs`.
    func open(
        opensStore: Bool, shard: LibraryShard? = nil, outputs: [any WarmOutput] = []
    ) async throws -> (configuration: ThumbsConfiguration, library: PhotoLibrary, store: ThumbnailStore?) {
        guard !opensStore else {
            let opened = try await open(shard: shard)
            return (opened.configuration, opened.library, opened.store)
        }
        let factory = try factory(shard: shard)
        do {
            let library = try await factory.openWithoutStore(recordingCrashesIn: outputs, notices: Self.say)
            CommandLog.logger.debug("library roots: \(library.roots.joined(separator: ", "))")
            return (factory.configuration, library, nil)
        } catch {
            try Self.fail(error)
        }
    }

    /// The cache's settings (`--cache`, the shard's index for `{shard}`), or the command ends
    /// with a usage error.
    func storeConfiguration(shard: LibraryShard?) throws -> StoreConfiguration {
        let factory = try factory(shard: shard)
        do {
            return try factory.storeConfiguration()
        } catch {
            try Self.fail(error)
        }
    }

    /// The renderer `configuration` asks for (its isolation), or the command ends with a clear
    /// line (the worker program is missing). Render workers on a kernel that lacks Landlock or
    /// seccomp run without it, and the command says so.
    static func renderer(for configuration: ThumbsConfiguration) throws -> any ThumbnailRendering {
        do {
            return try LibraryFactory(configuration: configuration).renderer(notices: say)
        } catch {
            try fail(error)
        }
    }

    /// Says what the factory tells, one line each on stderr.
    static func say(_ notice: LibraryFactory.Notice) {
        switch notice {
        case .crashedDecode(let location):
            printError("\(location): \(ImagingError.crashed)")
        case .noDecodeJournal(let error):
            printError("no decode journal (\(error)): a file that crashes a decoder will crash the next run too")
        case .unconfinedWorkers(let missing):
            printError("render workers run without \(missing.joined(separator: " and ")): this kernel lacks it")
        }
    }

    /// Ends the command with the line and exit status of `error`; an output's own error is
    /// thrown on as it is.
    static func fail(_ error: LibraryFactoryError) throws -> Never {
        switch error {
        case .missingRoot(let folder):
            throw CommandFailure.usage("\(folder): no such folder (set library.roots in config.json, or name one)")
        case .unsetShardPlaceholder(let path):
            throw CommandFailure.usage(
                "the cache path \(path) holds \(LibraryFactory.shardPlaceholder), which only --shard or --shards sets")
        case .cache(let path, let error):
            throw CommandFailure.cache(path, error)
        case .output(let error):
            throw error
        case .renderer(let error):
            throw CommandFailure.usage(
                "\(error.kind.rawValue): \(error) (isolation \"none\" in config.json renders in this process instead)")
        }
    }

    func printJSON<T: Encodable>(_ value: T) throws {
        let encoder = JSONEncoder(style: .document)
        print(String(decoding: try encoder.encode(value), as: UTF8.self))
    }

    /// Enumerates the library into albums, counting what came from the metadata cache; issues
    /// are reported on the way.
    func albums(of library: PhotoLibrary) async throws -> AlbumEnumeration {
        let enumeration = try await library.enumerateAlbums()
        report(enumeration.issues)
        return enumeration
    }

    /// The catalog of `library` the cache keeps, when a warm (or a watch) kept every root of it
    /// whole in this time zone; a line on stderr says as of when. Nil: the library is walked.
    func catalog(of library: PhotoLibrary) throws -> LibraryCatalog? {
        guard let store = library.store, library.shard == nil else { return nil }
        let catalog = LibraryCatalog(store: store)
        guard let walked = try catalog.walkedWhole(roots: library.roots) else { return nil }
        if !CommandLog.isQuiet {
            printError("from the catalog kept \(walked.formatted(.iso8601)) (--walk walks the library)")
        }
        return catalog
    }

    /// Issues go to stderr, one line each, so the table or JSON on stdout stays clean.
    func report(_ issues: [LibraryIssue]) {
        guard !CommandLog.isQuiet else { return }
        for issue in issues { printError("\(issue)") }
    }
}
