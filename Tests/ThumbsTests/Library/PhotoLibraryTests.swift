import Foundation
import SystemPackage
import Testing
import ThumbsCore
import ThumbsCoreTestSupport
import ThumbsImaging
@testable import ThumbsLibrary
import ThumbsStore
import ThumbsSupport
import ThumbsTestSupport
import ThumbsSamples

@Suite struct PhotoLibraryTests {
    let folder = TemporaryFolder()
    typealias L = LibraryFixtures

    private func store() throws -> ThumbnailStore {
        try ThumbnailStore(configuration: StoreConfiguration(path: folder.path + "/cache"))
    }

    @Test func mediaTypeComesFromContent() async throws {
        try folder.write(try L.jpeg(), to: "library/photo.jpg")
        try folder.write(try SyntheticImage(width: 50, height: 40).encoded(as: .png), to: "library/png-named.jpg")
        try folder.write(L.mp4, to: "library/clip.mov")
        try folder.write(Array("notes".utf8), to: "library/fake.jpg")
        try folder.write(Array("notes".utf8), to: "library/notes.txt")
        let all = try await L.library(folder).allAssets()
        let assets = all.assets, issues = all.issues
        let types = Dictionary(uniqueKeysWithValues: assets.map { ($0.relativePath, $0.mediaType) })
        #expect(types == ["photo.jpg": .jpeg, "png-named.jpg": .png, "clip.mov": .mp4])
        #expect(assets.first { $0.relativePath == "clip.mov" }?.fileSize == UInt64(L.mp4.count))
        #expect(
            issues.map(\.path) == ["fake.jpg", "clip.mov"],
            "text named .jpg is reported; notes.txt is not media and says so by name")
        // The clip is an MP4 header and nothing more: listed by its content, its header reported.
        guard case .unreadableHeader(let error) = issues.last?.reason else {
            Issue.record("the clip's header is not reported")
            return
        }
        #expect(error.kind == .truncated)
    }

    @Test func batchesAreBoundedAndTheFirstComesBeforeTheWalkEnds() async throws {
        for index in 0..<130 { try folder.write(L.mp4, to: "library/f\(index % 4)/clip\(index).mp4") }
        var sizes: [Int] = []
        for try await batch in L.library(folder).assets(batchSize: 50) { sizes.append(batch.assets.count) }
        #expect(sizes.reduce(0, +) == 130)
        #expect(sizes.allSatisfy { $0 <= 50 } && sizes.count >= 3)
    }

    @Test func reenumerationIsServedFromTheMetadataCache() async throws {
        for index in 0..<20 { try folder.write(try L.jpeg(100 + index, 80), to: "library/p\(index).jpg") }
        let store = try store()
        let library = L.library(folder, store: store)
        var first = (cached: 0, read: 0), second = (cached: 0, read: 0)
        for try await batch in library.assets() { first.cached += batch.fromCache; first.read += batch.inspected }
        for try await batch in library.assets() { second.cached += batch.fromCache; second.read += batch.inspected }
        #expect(first == (0, 20))
        #expect(second == (20, 0))
        // A changed file is read again; the others still come from the cache.
        try Data(try L.jpeg(300, 200)).write(to: URL(fileURLWithPath: folder.path + "/library/p3.jpg"))
        var third = (cached: 0, read: 0)
        var p3: Asset?
        for try await batch in library.assets() {
            third.cached += batch.fromCache
            third.read += batch.inspected
            p3 = p3 ?? batch.assets.first { $0.relativePath == "p3.jpg" }
        }
        #expect(third == (19, 1))
        #expect(p3?.pixelSize == PixelSize(width: 300, height: 200))
    }

    @Test func albumsAreEnumeratedWithWhatTheWalkReadAndNoticed() async throws {
        try folder.write(try L.jpeg(), to: "library/a/p1.jpg")
        try folder.write(try L.jpeg(), to: "library/a/p2.jpg")
        try folder.write(L.mp4, to: "library/b/clip.mp4")
        try folder.write(Array("notes".utf8), to: "library/b/fake.jpg")
        let library = L.library(folder, store: try store())
        let first = try await library.enumerateAlbums()
        #expect(first.albums.folderAlbums.map(\.title) == ["a", "b"])
        #expect(first.albums.folderAlbums.map { $0.count(of: .all) } == [2, 1])
        #expect(first.fromCache == 0 && first.inspected == 4)
        #expect(first.issues.map(\.path).contains("b/fake.jpg"))
        let second = try await library.enumerateAlbums()
        #expect(second.fromCache == 4 && second.inspected == 0, "the second walk reads the metadata cache")
        #expect(try await library.albums().count == first.albums.smartAlbums.count + 2)
    }

    @Test func anAssetIsFoundByItsFileOrItsID() async throws {
        let path = try folder.write(try L.jpeg(), to: "library/sub/p.jpg")
        try folder.write(try L.jpeg(), to: "library/q.jpg")
        let library = L.library(folder)
        let walked = try #require(try await library.allAssets().assets.first { $0.relativePath == "sub/p.jpg" })
        let named = try await library.asset(forFile: path)
        #expect(named.id == walked.id && named.root == walked.root && named.fingerprint == walked.fingerprint)
        #expect(try await library.asset(withID: walked.id)?.relativePath == "sub/p.jpg")
        #expect(try await library.asset(withID: "0000000000000000") == nil)
    }

    @Test func placeholdersComeFromTheMetadataCacheForTheirVersionOnly() async throws {
        try folder.write(try L.jpeg(), to: "library/p.jpg")
        let store = try store()
        let library = L.library(folder, store: store)
        let walked = try #require(try await library.allAssets().assets.first)
        #expect(walked.placeholder == nil)
        let hash = try #require(ThumbHash(base64: "IQcGXYJ/OHdXR6d3d3p3d3B3197A"))
        #expect(try await store.setPlaceholder(hash, for: walked.id, fingerprint: walked.fingerprint))

        let again = try await library.allAssets().assets
        #expect(again.map(\.placeholder) == [hash])
        // The library's snapshot keeps it too.
        _ = try await library.rescan()
        let kept = try store.cursor(named: PhotoLibrary.defaultCursor) { record throws(StoreError) in
            try FetchResult(cursorRecord: record)
        }
        #expect(kept??.first?.placeholder == hash)

        // A changed file has none, and its old one is gone.
        try Data(try L.jpeg(300, 200)).write(to: URL(fileURLWithPath: folder.path + "/library/p.jpg"))
        let changed = try #require(try await library.allAssets().assets.first)
        #expect(changed.fingerprint != walked.fingerprint && changed.placeholder == nil)
        #expect(try store.placeholder(for: walked.id, fingerprint: walked.fingerprint) == nil)
    }

    @Test func aFileChangedWhileReadIsReadAgainNotCached() async throws {
        let path = try folder.write(try L.jpeg(), to: "library/busy.jpg")
        let store = try store()
        let library = L.library(folder, store: store)
        // The walk saw an older version than the one on disk now.
        let stale = LibraryWalker.File(
            path: "busy.jpg", relativePath: "busy.jpg",
            fingerprint: FileFingerprint(size: 1, modificationTimeNanoseconds: 1))
        var batch = LibraryBatch()
        let changing = try await library.resolve([stale], root: folder.path + "/library", into: &batch)
        #expect(changing.map(\.file.relativePath) == ["busy.jpg"] && batch.assets.isEmpty)
        #expect(try store.metadata(for: AssetID.make(root: folder.path + "/library", relativePath: "busy.jpg")) == nil)
        _ = path
    }

    @Test func aFileStillBeingWrittenIsListedNeverRemoved() async throws {
        let path = try folder.write(try L.jpeg(), to: "library/copying.jpg")
        let library = L.library(folder, store: try store())
        _ = try await library.rescan()
        // Another process keeps appending to the file while the library is read again.
        let writing = Locked(true)
        let writer = Thread {
            guard let handle = FileHandle(forWritingAtPath: path) else { return }
            while writing.value {
                handle.seekToEndOfFile()
                handle.write(Data([0]))
                usleep(200)
            }
            try? handle.close()
        }
        writer.start()
        let size = { (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0 }
        let before = size()
        try await eventually { size() > before + 10 }
        let changes = try await library.rescan()
        writing.withLock { $0 = false }
        let change = try #require(changes)
        #expect(change.removedIndexes.isEmpty, "a file being rewritten is not gone")
        #expect(change.changedIndexes.count == 1)
        let listed = change.after.object(at: change.changedIndexes[0])
        #expect(listed.relativePath == "copying.jpg" && listed.mediaType == .jpeg && listed.properties == nil)
    }

    @Test func walkCanBeCancelled() async throws {
        for index in 0..<500 { try folder.write(L.mp4, to: "library/clip\(index).mp4") }
        let library = L.library(folder)
        let task = Task {
            var seen = 0
            for try await batch in library.assets(batchSize: 10) {
                seen += batch.assets.count
                if seen >= 20 { withUnsafeCurrentTask { $0?.cancel() } }
            }
            return seen
        }
        await #expect(throws: CancellationError.self) { _ = try await task.value }
    }

    @Test func fiveThousandFilesComeInBoundedBatches() async throws {
        // 5,000 videos (content-sniffed, never decoded) in 40 folders: enough for a hundred batches
        // (each file is probed, the suite's slowest step under AddressSanitizer).
        for index in 0..<5_000 { try folder.write(L.mp4, to: "library/d\(index % 40)/clip\(index).mp4") }
        let library = L.library(folder)
        var total = 0, batches = 0, largest = 0
        for try await batch in library.assets(batchSize: 50) {
            total += batch.assets.count
            batches += 1
            largest = max(largest, batch.assets.count)
        }
        #expect(total == 5_000)
        #expect(largest <= 50 && batches >= 100)
    }
}
