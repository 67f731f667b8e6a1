import Foundation
import Testing
import Thumbs
import ThumbsTestSupport
import ThumbsTesting

/// `thumbs stats`, `evict`, `compact`, `verify` on a cache warmed by `thumbs warm`.
@Suite struct CacheCommandsTests {
    let folder = TemporaryFolder()
    var cache: String { folder.path + "/cache" }

    private func json(_ arguments: [String]) throws -> [String: Any] {
        let outcome = try ThumbsProcess.run(arguments + ["--cache", cache, "--json"])
        #expect(outcome.status == 0, "\(arguments): \(outcome.standardError)")
        return try #require(try JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [String: Any])
    }

    @Test func statsEvictCompactVerify() throws {
        for index in 0..<10 {
            try folder.write(
                try SyntheticImage(width: 800 + index, height: 600).encoded(as: .jpeg), to: "library/p\(index).jpg")
        }
        #expect(try ThumbsProcess.run(["warm", folder.path + "/library", "--cache", cache, "--json"]).status == 0)
        #expect(try json(["stats"])["thumbnails"] as? Int == 20)
        #expect(try json(["verify"])["problems"] as? [String] == [])
        let evicted = try json(["evict", "--to", "1 KB"])
        #expect(evicted["evicted"] as? Int == 20 && evicted["liveBytes"] as? Int == 0)
        let compacted = try json(["compact"])
        #expect((compacted["bytesAfter"] as? Int ?? .max) < (compacted["bytesBefore"] as? Int ?? 0))
        #expect(try json(["stats"])["thumbnails"] as? Int == 0)
        #expect(try ThumbsProcess.run(["evict", "--to", "lots", "--cache", cache]).status == 2)
    }

    @Test func aDamagedCacheIsExitThreeWithTheRemedyAndResetStartsANewOne() throws {
        for index in 0..<4 {
            try folder.write(
                try SyntheticImage(width: 400 + index, height: 300).encoded(as: .jpeg), to: "library/p\(index).jpg")
        }
        let library = folder.path + "/library"
        #expect(try ThumbsProcess.run(["warm", library, "--cache", cache, "--json"]).status == 0)
        #expect(truncate(cache + "/data.mdb", 12288) == 0)
        for arguments in [
            ["stats"], ["verify"], ["evict"], ["compact"], ["warm", library],
            ["get", library + "/p0.jpg", "-o", folder.path + "/x.jpg"],
        ] {
            let outcome = try ThumbsProcess.run(arguments + ["--cache", cache])
            #expect(outcome.status == 3, "\(arguments): \(outcome.standardError)")
            #expect(
                outcome.standardError.contains("is damaged") && outcome.standardError.contains("thumbs reset"),
                "\(arguments)")
        }
        let reset = try ThumbsProcess.run(["reset", "--cache", cache])
        #expect(reset.status == 0, "\(reset.standardError)")
        #expect(try json(["stats"])["thumbnails"] as? Int == 0)
        let aside = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
            $0.hasPrefix("cache.damaged-")
        }
        #expect(aside.count == 1, "the damaged cache is kept, renamed")

        #expect(truncate(cache + "/data.mdb", 4096) == 0)
        let rebuilt = try ThumbsProcess.run(["warm", library, "--rebuild", "--cache", cache, "--json"])
        #expect(rebuilt.status == 0, "\(rebuilt.standardError)")
        #expect(try json(["stats"])["thumbnails"] as? Int == 8)
    }

    /// A crash no check could prevent (LMDB following a damaged page deep in a table) ends with
    /// one line naming the remedy, and the signal still shows in the exit status.
    @Test func aFatalSignalLeavesALineNamingTheRemedy() throws {
        try folder.write(try SyntheticImage(width: 400, height: 300).encoded(as: .jpeg), to: "library/p.jpg")
        let process = Process()
        process.executableURL = ThumbsProcess.executable()
        process.arguments = ["watch", folder.path + "/library", "--cache", cache, "--json"]
        let output = Pipe(), error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        var text = ""
        while !text.contains("\"watching\"") {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        kill(process.processIdentifier, SIGSEGV)
        let note = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGSEGV)
        #expect(note.contains("`thumbs verify` checks it and `thumbs reset` moves it aside"), "\(note)")
    }
}
