import Foundation
import Testing
import Thumbs
import ThumbsCoreTestSupport
import ThumbsTestSupport
import ThumbsSamples

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

    /// After a warm, a request of the grid rendition's box and mode (at no quality of its own) is
    /// the grid rendition: it comes from the cache, and nothing new is stored.
    @Test func getOfAWarmedRenditionsBoxComesFromTheCache() throws {
        let photo = try folder.write(
            try SyntheticImage(width: 900, height: 600).encoded(as: .jpeg), to: "library/p.jpg")
        #expect(try ThumbsProcess.run(["warm", folder.path + "/library", "--cache", cache, "--json"]).status == 0)
        let got = try ThumbsProcess.run(
            [
                "get", photo, "--size", "256x256", "--mode", "fill", "--delivery", "highQualityFormat", "-o",
                folder.path + "/got.jpg", "--cache", cache, "--json",
            ])
        #expect(got.status == 0, "\(got.standardError)")
        let lines = got.standardOutput.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        #expect(lines.count == 1 && lines.first?["source"] as? String == "store", "\(got.standardOutput)")
        #expect(try json(["stats"])["thumbnails"] as? Int == 2)
    }

    /// A photo a warm failed to render (over a pixel limit of 1000) is answered from the failure
    /// memo: `thumbs get` under the default limit, which would decode it, says the warm's failure.
    @Test func getOfAFileThatFailedAnswersFromTheFailureMemo() throws {
        let photo = try folder.write(
            try SyntheticImage(width: 900, height: 600).encoded(as: .jpeg), to: "library/p.jpg")
        let config = try folder.write(Array(#"{"pixelLimit": 1000}"#.utf8), to: "config.json")
        let warm = try ThumbsProcess.run(["warm", folder.path + "/library", "--cache", cache, "--config", config])
        #expect(warm.status == 1, "\(warm.standardError)")
        let got = try ThumbsProcess.run(["get", photo, "-o", folder.path + "/got.jpg", "--cache", cache])
        #expect(got.status == 1)
        let lines = got.standardError.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].contains("p.jpg: too-many-pixels: 900x600"), "\(got.standardError)")
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/got.jpg"))
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

    /// A cache file that is not a regular file is damage found at once, exit 3: a FIFO (whose
    /// open waited for a writer forever), a link to a device, a directory, a socket.
    @Test func aCacheFileThatIsNotARegularFileIsRefusedAtOnce() throws {
        let makers: [(file: String, what: String, make: (String) throws -> Void)] = [
            ("data.mdb", "a FIFO", { #expect(mkfifo($0, 0o644) == 0) }),
            ("lock.mdb", "a FIFO", { #expect(mkfifo($0, 0o644) == 0) }),
            (
                "data.mdb", "a character device",
                { try FileManager.default.createSymbolicLink(atPath: $0, withDestinationPath: "/dev/zero") }
            ),
            (
                "data.mdb", "a directory",
                { try FileManager.default.createDirectory(atPath: $0, withIntermediateDirectories: false) }
            ),
            ("data.mdb", "a socket", Self.bindSocket),
        ]
        for (index, maker) in makers.enumerated() {
            let cache = folder.path + "/cache\(index)"
            try FileManager.default.createDirectory(atPath: cache, withIntermediateDirectories: true)
            try maker.make(cache + "/" + maker.file)
            for arguments in [["stats"], ["verify"]] {
                let outcome = try ThumbsProcess.run(arguments + ["--cache", cache], killedAfter: .seconds(60))
                #expect(outcome.status == 3, "\(maker.file) as \(maker.what), \(arguments): \(outcome.standardError)")
                #expect(
                    outcome.standardError.contains("\(maker.file): the file is \(maker.what), not a regular file"),
                    "\(outcome.standardError)")
            }
        }
    }

    /// Makes a Unix socket at `path` (the file stays when the socket is closed).
    private static func bindSocket(_ path: String) throws {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        try #require(bytes.count < MemoryLayout.size(ofValue: address.sun_path))
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        #expect(bound == 0, "bind \(path): \(errno)")
    }
}
