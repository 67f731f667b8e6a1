import Foundation
import Testing
import Thumbs
import ThumbsTestSupport
import ThumbsTesting

/// `thumbs watch` keeps the cache in sync while it runs.
@Suite struct WatchCommandTests {
    let folder = TemporaryFolder()

    @Test func rendersWhatArrivesAndForgetsWhatGoes() throws {
        try folder.write(try SyntheticImage(width: 400, height: 300).encoded(as: .jpeg), to: "library/first.jpg")
        let process = Process()
        process.executableURL = ThumbsProcess.executable()
        process.arguments = ["watch", folder.path + "/library", "--cache", folder.path + "/cache", "--json"]
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
        try FileManager.default.removeItem(atPath: folder.path + "/library/first.jpg")
        waitFor("\"removed\":1")
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        #expect(process.terminationStatus == 130)
        #expect(text.contains("\"rendered\":1"), "\(text)")

        let store = try ThumbnailStore(configuration: StoreConfiguration(path: folder.path + "/cache"))
        let statistics = try store.statistics()
        #expect(statistics.thumbnails == 2, "the new photo's two renditions, nothing of the removed one")
        #expect(try store.verify().isConsistent)
    }
}
