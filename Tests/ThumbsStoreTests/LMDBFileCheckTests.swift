import Foundation
import Testing
import ThumbsCoreTestSupport
@testable import ThumbsStore
import ThumbsSupport

/// A damaged cache file is a typed error, found before LMDB maps it: never SIGBUS or SIGSEGV.
@Suite struct LMDBFileCheckTests {
    let folder = TemporaryFolder()
    typealias F = StoreFixtures

    private var configuration: StoreConfiguration { .testing(folder) }
    private var dataFile: String { configuration.path + "/data.mdb" }

    /// A closed cache of `count` small thumbnails: a table a few levels deep.
    private func makeCache(count: Int = 2000) async throws {
        let store = try ThumbnailStore(configuration: configuration)
        try await store.putThumbnails(
            (0..<count).map { .init(key: F.key("asset\($0)"), thumbnail: F.thumbnail($0, count: 100)) })
    }

    private func overwrite(at offset: Int, with bytes: [UInt8]) throws {
        let handle = try #require(FileHandle(forUpdatingAtPath: dataFile))
        defer { try? handle.close() }
        try handle.seek(toOffset: UInt64(offset))
        try handle.write(contentsOf: Data(bytes))
    }

    private func openingError() throws -> StoreError {
        try #require(throws: StoreError.self) { _ = try ThumbnailStore(configuration: configuration) }
    }

    @Test func aTruncatedFileIsDamagedNotASignal() async throws {
        try await makeCache()
        let size = try #require(try FileManager.default.attributesOfItem(atPath: dataFile)[.size] as? Int)
        #expect(truncate(dataFile, off_t(size / 2)) == 0)
        let error = try openingError()
        #expect(error.isDamaged && error.resultCode == .corrupted, "\(error)")
        #expect(error.message.contains("truncated"))
    }

    @Test func randomBytesAfterTheMetaPagesAreDamage() async throws {
        try await makeCache()
        let size = try #require(try FileManager.default.attributesOfItem(atPath: dataFile)[.size] as? Int)
        var generator = SystemRandomNumberGenerator()
        try overwrite(at: 8192, with: (8192..<size).map { _ in UInt8.random(in: 0...255, using: &generator) })
        #expect(try openingError().isDamaged)
    }

    @Test func bothMetaPagesGoneIsDamage() async throws {
        try await makeCache()
        try overwrite(at: 16, with: [UInt8](repeating: 0, count: 8))
        try overwrite(at: 4096 + 16, with: [UInt8](repeating: 0, count: 8))
        #expect(try openingError().isDamaged)
    }

    /// LMDB refuses a file when either meta page is not one, however whole the other is: so does
    /// the check, naming the page, rather than leave the refusal to LMDB.
    @Test func oneMetaPageGoneIsDamageFoundByTheCheck() async throws {
        try await makeCache(count: 10)
        try overwrite(at: 16, with: [0x21, 0x43, 0x65, 0x87])
        let error = try openingError()
        #expect(error.resultCode == .corrupted && error.message.contains("meta page 0"), "\(error)")
    }

    /// A device in place of the data file (it reads zeros without end) is damage, found before
    /// LMDB maps it.
    @Test func aDataFileThatIsNotARegularFileIsDamage() throws {
        try FileManager.default.createDirectory(atPath: configuration.path, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: dataFile, withDestinationPath: "/dev/zero")
        let error = try openingError()
        #expect(error.isDamaged && error.message.contains("a character device, not a regular file"), "\(error)")
    }

    /// A meta page can name any last page, up to 2^64 - 1, and the file size it implies overflows.
    @Test func aLastPagePastAnyFileIsDamage() async throws {
        try await makeCache(count: 10)
        for meta in [0, 4096] { try overwrite(at: meta + 136, with: [UInt8](repeating: 0xFF, count: 8)) }
        let error = try openingError()
        #expect(error.isDamaged && error.message.contains("past any file"), "\(error)")
    }

    /// Damage deeper than what opening reads is found by verify, which reads every page.
    @Test func verifyReportsDamageDeepInATable() async throws {
        try await makeCache()
        let opening = try LMDBFileCheck.check(folder: configuration.path, depth: .opening)
        let every = try LMDBFileCheck.check(folder: configuration.path, depth: .everyPage)
        let deep = try #require(every.subtracting(opening).sorted().first, "the table has pages opening skips")
        try overwrite(at: Int(deep) * 4096 + 16, with: [UInt8](repeating: 0xEE, count: 64))
        let store = try ThumbnailStore(configuration: configuration)
        let report = try store.verify()
        #expect(report.problems.count == 1 && report.problems[0].hasPrefix("damaged: "), "\(report.problems)")
        #expect(throws: StoreError.self) { try ThumbnailStore.checkFile(path: configuration.path) }
    }

    @Test func aHealthyCachePassesEveryCheck() async throws {
        try await makeCache()
        try ThumbnailStore.checkFile(path: configuration.path)
        let store = try ThumbnailStore(configuration: configuration)
        #expect(try store.verify().isConsistent)
    }

    @Test func aDamagedCacheIsMovedAsideAndANewOneStarts() async throws {
        try await makeCache(count: 10)
        #expect(truncate(dataFile, 10000) == 0)
        let movedTo = try ThumbnailStore.moveAside(
            path: configuration.path, now: Date(timeIntervalSince1970: 1_800_000_000))
        #expect(movedTo.hasPrefix(configuration.path + ".damaged-"))
        #expect(FileManager.default.fileExists(atPath: movedTo + "/data.mdb"), "nothing is deleted")
        let store = try ThumbnailStore(configuration: configuration)
        #expect(try store.statistics().thumbnails == 0)
        #expect(throws: StoreError.self, "not while it is open") {
            try ThumbnailStore.moveAside(path: configuration.path)
        }
    }

    @Test func aKilledCompactionsScratchIsRemovedAtTheNextOpen() async throws {
        try await makeCache(count: 10)
        let scratch = configuration.path + "/" + LMDBEnvironment.compactionScratchPrefix + "a1b2c3"
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: scratch + "/data.mdb", contents: Data(count: 1 << 20)))
        _ = try ThumbnailStore(configuration: configuration)
        #expect(!FileManager.default.fileExists(atPath: scratch))
    }
}
