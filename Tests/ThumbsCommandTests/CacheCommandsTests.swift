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
}
