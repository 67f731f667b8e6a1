import Foundation
import ThumbsImaging
import ThumbsIsolation
import ThumbsLibrary
import ThumbsPipeline
import ThumbsRendering
import ThumbsStore

/// Opens what a program works on from a ``/ThumbsSettings/ThumbsConfiguration``: the store, the renderer its
/// isolation asks for, and the library over its roots, with the decode journal every process
/// that decodes keeps. The `thumbs` commands, `thumbs serve` and apps open a library this way.
///
/// With isolation `"none"`, every decode is noted in a decode journal while it runs, so that a
/// file that crashes a decoder is known to the next process; the decodes a process that died
/// left noted are recorded as ``/ThumbsCore/ImagingError/crashed`` failures first (in the
/// store, or in the outputs when none is opened), whatever the isolation, and each is told
/// through `notices`. With render workers, a decoder's fault costs its worker, and no journal
/// is kept.
///
/// ```swift
/// let opened = try await LibraryFactory(configuration: configuration).open()
/// let manager = CachingImageManager(
///     renderer: opened.renderer, store: opened.store, configuration: configuration.pipeline)
/// ```
public struct LibraryFactory: Sendable {
    public var configuration: ThumbsConfiguration
    /// The library's folders; nil for the configuration's `library.roots`.
    public var roots: [String]?
    /// Whether folders that do not exist are left out instead of failing with
    /// ``LibraryFactoryError/missingRoot(_:)``. Default: false.
    public var skipsMissingRoots = false
    /// The cache folder instead of `cache.path`, relative to the working directory (see
    /// ``/ThumbsSettings/ThumbsConfiguration/store(path:)``).
    public var cachePath: String?
    /// The part of the library to open (all of it when nil); it also stands for
    /// ``shardPlaceholder`` in the cache path.
    public var shard: LibraryShard?
    /// Thumbs' state folder, where a process that opens no store keeps its decode journal.
    /// Default: `$XDG_STATE_HOME/thumbs`, else `~/.local/state/thumbs`.
    public var stateDirectory = LibraryFactory.defaultStateDirectory

    /// What stands for the shard's index in a cache path, so that one path names every shard's
    /// cache.
    public static let shardPlaceholder = "{shard}"

    public init(configuration: ThumbsConfiguration) {
        self.configuration = configuration
    }

    /// Something the caller may want to say while a library opens.
    public enum Notice: Sendable {
        /// A process that died was decoding this file; it is now remembered as a crashed
        /// failure, skipped until it changes.
        case crashedDecode(ImageLocation)
        /// No decode journal could be kept (its folder is read-only, or full): a file that
        /// crashes a decoder will crash the next process too.
        case noDecodeJournal(StoreError)
        /// Render workers run without these measures of their confinement, which this kernel
        /// lacks (Landlock, seccomp).
        case unconfinedWorkers(missing: [String])
    }

    /// The library's folders: ``roots``, else the configuration's resolved against its file;
    /// those that do not exist left out when ``skipsMissingRoots``.
    public func libraryRoots() throws(LibraryFactoryError) -> [String] {
        let folders = roots ?? configuration.library.roots.map(configuration.resolve)
        if skipsMissingRoots { return folders.filter { FileManager.default.fileExists(atPath: $0) } }
        if let missing = folders.first(where: { !FileManager.default.fileExists(atPath: $0) }) {
            throw .missingRoot(missing)
        }
        return folders
    }

    /// The store's settings: the configuration's, at ``cachePath`` when given, with the shard's
    /// index for ``shardPlaceholder``.
    public func storeConfiguration() throws(LibraryFactoryError) -> StoreConfiguration {
        var store = configuration.store(path: cachePath)
        guard store.path.contains(Self.shardPlaceholder) else { return store }
        guard let shard else { throw .unsetShardPlaceholder(cachePath: store.path) }
        store.path = store.path.replacingOccurrences(of: Self.shardPlaceholder, with: String(shard.index))
        return store
    }

    /// Opens the store, then the library with its metadata kept there.
    public func open(notices: (Notice) -> Void = { _ in }) async throws(LibraryFactoryError) -> OpenedLibrary {
        let folders = try libraryRoots()
        let storeConfiguration = try storeConfiguration()
        let store: ThumbnailStore
        do {
            store = try ThumbnailStore(configuration: storeConfiguration)
        } catch {
            throw .cache(path: storeConfiguration.path, error)
        }
        let journal = try await openJournal(beside: storeConfiguration.path, notices: notices) {
            (crashed) throws(LibraryFactoryError) in
            do {
                try await FailureMemo(store: store).rememberCrashes(at: crashed)
            } catch {
                throw .cache(path: storeConfiguration.path, error)
            }
        }
        let library = PhotoLibrary(
            roots: folders, includeHidden: configuration.library.includeHidden,
            renderer: try renderer(journal: journal, notices: notices), store: store, shard: shard)
        return OpenedLibrary(configuration: configuration, store: store, library: library)
    }

    /// Opens the library with no store, for a program that writes elsewhere than the cache and
    /// leaves it untouched: the decode journal is kept in ``stateDirectory`` and crashed decodes
    /// are recorded in `outputs`; with none, no journal is kept.
    public func openWithoutStore(
        recordingCrashesIn outputs: [any WarmOutput], notices: (Notice) -> Void = { _ in }
    ) async throws(LibraryFactoryError) -> PhotoLibrary {
        let folders = try libraryRoots()
        var journal: DecodeJournalFile?
        if !outputs.isEmpty {
            try? FileManager.default.createDirectory(atPath: stateDirectory, withIntermediateDirectories: true)
            journal = try await openJournal(beside: stateDirectory, notices: notices) {
                (crashed) throws(LibraryFactoryError) in
                do {
                    for file in FailureMemo.crashedFiles(at: crashed) {
                        for output in outputs { try await output.recordFailure(FailureRecord(.crashed), of: file) }
                    }
                } catch {
                    throw .output(error)
                }
            }
        }
        return PhotoLibrary(
            roots: folders, includeHidden: configuration.library.includeHidden,
            renderer: try renderer(journal: journal, notices: notices), store: nil, shard: shard)
    }

    /// The renderer the configuration asks for (`ThumbsConfiguration.renderer(journal:)`);
    /// render workers that run without part of their confinement are told through `notices`.
    public func renderer(
        journal: (any DecodeJournal)? = nil, notices: (Notice) -> Void = { _ in }
    ) throws(LibraryFactoryError) -> any ThumbnailRendering {
        let renderer: any ThumbnailRendering
        do {
            renderer = try configuration.renderer(journal: journal)
        } catch {
            throw .renderer(error)
        }
        let missing = WorkerConfinement.available.missing
        if configuration.isolation == .process, !missing.isEmpty { notices(.unconfinedWorkers(missing: missing)) }
        return renderer
    }

    /// `$XDG_STATE_HOME/thumbs` (when absolute), else `~/.local/state/thumbs`.
    public static var defaultStateDirectory: String {
        let environment = ProcessInfo.processInfo.environment
        let state =
            environment["XDG_STATE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? (NSHomeDirectory() + "/.local/state")
        return state + "/thumbs"
    }
}
