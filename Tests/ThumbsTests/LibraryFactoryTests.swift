import Foundation
import SystemPackage
import Testing
import Thumbs
import ThumbsCoreTestSupport
import ThumbsTestSupport

/// Libraries opened from a configuration: a real LMDB cache, real files, and a real process that
/// dies while it decodes (`thumbs-journal-fault`).
@Suite struct LibraryFactoryTests {
    let folder = TemporaryFolder()
    var root: String { folder.path + "/library" }
    var cache: String { folder.path + "/cache" }

    /// A configuration of the library and cache in the test's folder, decoding in this process.
    private func factory(isolation: RenderIsolation = .none) throws -> LibraryFactory {
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        var configuration = ThumbsConfiguration()
        configuration.library.roots = [root]
        configuration.cache.path = cache
        configuration.isolation = isolation
        configuration.workers = 1
        return LibraryFactory(configuration: configuration)
    }

    /// The decode journal files in the cache's journal folder.
    private var journals: [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: cache + "/decoding")) ?? []
    }

    @Test func opensTheStoreAndTheLibraryOfAConfiguration() async throws {
        try folder.write(Array("not a photo".utf8), to: "library/notes.txt")
        var noticed: [LibraryFactory.Notice] = []
        let opened = try await factory().open { noticed.append($0) }
        #expect(opened.library.roots == [root])
        #expect(opened.store.configuration.path == cache)
        #expect(FileManager.default.fileExists(atPath: cache + "/data.mdb"))
        #expect(opened.renderer is ThumbnailRenderer, "isolation none renders in this process")
        #expect(try await opened.library.allAssets().assets.isEmpty)
        #expect(noticed.isEmpty)
        #expect(journals == ["\(getpid())"], "this process's decodes are noted")
    }

    @Test func recordsTheDecodesADeadProcessLeftAsCrashed() async throws {
        let location = try leaveACrashedDecode(of: "p0.jpg")
        var crashed: [ImageLocation] = []
        let opened = try await factory().open { notice in
            if case .crashedDecode(let location) = notice { crashed.append(location) }
        }
        #expect(crashed == [location])
        let file = try #require(Asset(crashedDecodeAt: location))
        #expect(try opened.store.failure(for: file.id, fingerprint: file.fingerprint)?.kind == .crashed)
        #expect(journals == ["\(getpid())"], "the dead process's journal is removed once recorded")
    }

    @Test func keepsNoJournalWithRenderWorkers() async throws {
        let location = try leaveACrashedDecode(of: "p0.jpg")
        let opened = try await factory(isolation: .process).open()
        #expect(opened.renderer is IsolatedThumbnailRenderer)
        let file = try #require(Asset(crashedDecodeAt: location))
        #expect(
            try opened.store.failure(for: file.id, fingerprint: file.fingerprint)?.kind == .crashed,
            "what an earlier process left is recorded all the same")
        #expect(journals.isEmpty)
    }

    @Test func aMissingRootIsAnErrorUnlessSkipped() async throws {
        var factory = try factory()
        factory.roots = [root, folder.path + "/elsewhere"]
        let error = await #expect(throws: LibraryFactoryError.self) { try await factory.open() }
        guard case .missingRoot(let missing) = error else {
            Issue.record("\(String(describing: error))")
            return
        }
        #expect(missing == folder.path + "/elsewhere")
        #expect(!FileManager.default.fileExists(atPath: cache), "nothing is opened before the roots are known")
        factory.skipsMissingRoots = true
        #expect(try await factory.open().library.roots == [root])
    }

    @Test func theShardStandsForThePlaceholderInTheCachePath() throws {
        var factory = try factory()
        factory.cachePath = folder.path + "/cache-\(LibraryFactory.shardPlaceholder)"
        let error = #expect(throws: LibraryFactoryError.self) { try factory.storeConfiguration() }
        guard case .unsetShardPlaceholder = error else {
            Issue.record("\(String(describing: error))")
            return
        }
        factory.shard = try LibraryShard(parsing: "2/4")
        #expect(try factory.storeConfiguration().path == folder.path + "/cache-2")
    }

    @Test func withoutAStoreNoJournalIsKeptForNoOutput() async throws {
        var factory = try factory()
        factory.stateDirectory = folder.path + "/state"
        let library = try await factory.openWithoutStore(recordingCrashesIn: [])
        #expect(library.roots == [root])
        #expect(!FileManager.default.fileExists(atPath: cache))
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/state"))
    }

    /// Writes `name` in the library and has a process die (SIGSEGV) while its journal in the
    /// cache notes the file's decode; returns the file's location as noted.
    private func leaveACrashedDecode(of name: String) throws -> ImageLocation {
        let path = try folder.write(Array("a photo".utf8), to: "library/" + name)
        // The fault is the test's own: no backtrace of it, and under AddressSanitizer no report.
        var environment = ["SWIFT_BACKTRACE": "enable=no"]
        if let options = ProcessInfo.processInfo.environment["ASAN_OPTIONS"] {
            environment["ASAN_OPTIONS"] = options + ":handle_segv=0"
        }
        let fault = try ThumbsProcess.run(
            [cache, root, "noting", name], executable: "thumbs-journal-fault", environment: environment)
        #expect(fault.status == SIGSEGV, "\(fault.standardError)")
        return ImageLocation(
            root: FilePath(root), relativePath: FilePath(name), expectedFingerprint: try FileFingerprint(path: path))
    }
}
