import Foundation
import Testing
import Thumbs
import ThumbsCoreTestSupport
import ThumbsFreedesktop
import ThumbsTestSupport
import ThumbsSamples

/// `thumbs watch` keeps the cache in sync while it runs.
@Suite struct WatchCommandTests {
    let folder = TemporaryFolder()

    /// Runs `thumbs watch` with `arguments` on library/ holding first.jpg: adds new/second.jpg,
    /// calls `inserted`, removes first.jpg, stops it with Ctrl-C. Returns what it printed.
    private func watchAddAndRemove(_ arguments: [String], inserted: () throws -> Void = {}) throws -> String {
        try folder.write(try SyntheticImage(width: 400, height: 300).encoded(as: .jpeg), to: "library/first.jpg")
        let process = Process()
        process.executableURL = ThumbsProcess.executable()
        process.arguments = ["watch", folder.path + "/library", "--json"] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var text = ""
        func waitFor(_ word: String) {
            while !text.contains(word) {
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty { return }
                text += String(decoding: chunk, as: UTF8.self)
            }
        }
        waitFor("\"watching\"")
        try folder.write(try SyntheticImage(width: 600, height: 400).encoded(as: .jpeg), to: "library/new/second.jpg")
        waitFor("\"inserted\":1")
        try inserted()
        try FileManager.default.removeItem(atPath: folder.path + "/library/first.jpg")
        waitFor("\"removed\":1")
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        #expect(process.terminationStatus == 130)
        #expect(text.contains("\"rendered\":1"), "\(text)")
        return text
    }

    @Test func rendersWhatArrivesAndForgetsWhatGoes() throws {
        _ = try watchAddAndRemove(["--cache", folder.path + "/cache"])

        let store = try ThumbnailStore(configuration: StoreConfiguration(path: folder.path + "/cache"))
        let statistics = try store.statistics()
        #expect(statistics.thumbnails == 2, "the new photo's two renditions, nothing of the removed one")
        #expect(try store.verify().isConsistent)
    }

    @Test func keepsTheDesktopsThumbnailsInSyncAlone() throws {
        let cache = DesktopThumbnailCache(folder: folder.path + "/thumbnails")
        let library = URL(fileURLWithPath: folder.path + "/library").standardizedFileURL.path
        let first = try #require(FileURI(path: library + "/first.jpg"))
        let second = try #require(FileURI(path: library + "/new/second.jpg"))
        func exists(_ uri: FileURI) -> Bool {
            cache.flavors.allSatisfy { FileManager.default.fileExists(atPath: cache.path(of: uri, flavor: $0)) }
        }
        _ = try watchAddAndRemove(
            ["--freedesktop-only", "--freedesktop-folder", cache.folder, "--cache", folder.path + "/cache"],
            inserted: {
                #expect(exists(second), "the new photo's thumbnails, at both sizes")
                // The photo there before the watch started gets its thumbnails from a warm.
                let warm = try ThumbsProcess.run(
                    ["warm", "--freedesktop-only", "--freedesktop-folder", cache.folder, "--quiet", library])
                #expect(warm.status == 0 && exists(first), "\(warm.standardError)")
            })
        #expect(exists(second) && !exists(first), "the removed photo's thumbnails went with it")
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/cache"), "Thumbs' cache untouched")
    }
}
