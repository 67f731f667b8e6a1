import Foundation
import Testing
import Thumbs
import ThumbsCoreTestSupport
import ThumbsTestSupport

/// `thumbs albums`, `thumbs moments` and `thumbs probe` over a library of every subtype, run as
/// a user would.
@Suite(.enabled(if: SubtypeLibrary.isAvailable, SubtypeLibrary.skipReason))
struct AlbumsCommandTests {
    let folder = TemporaryFolder()
    var library: String { folder.path + "/library" }

    private func json(_ arguments: [String]) throws -> Any {
        let outcome = try ThumbsProcess.run(arguments)
        #expect(outcome.status == 0, "\(outcome.standardError)")
        return try JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8))
    }

    @Test func everySubtypeHasItsSmartAlbumAndABurstCountsOnce() throws {
        try SubtypeLibrary.write(into: library)
        let cache = ["--cache", folder.path + "/cache", "--json"]
        let albums = try #require(try json(["albums", library] + cache) as? [[String: Any]])
        let smart = albums.filter { $0["kind"] as? String == "smart" }
        var found: [String: (subtype: String, count: Int)] = [:]
        for album in smart {
            let count = (album["photos"] as? Int ?? 0) + (album["videos"] as? Int ?? 0)
            found[album["title"] as? String ?? ""] = (album["subtype"] as? String ?? "", count)
        }
        #expect(found.keys.sorted() == SubtypeLibrary.smartAlbums.keys.sorted(), "empty ones are not listed")
        for (title, expected) in SubtypeLibrary.smartAlbums {
            #expect(found[title]?.subtype == expected.subtype && found[title]?.count == expected.count, "\(title)")
        }
        let days = try #require(try json(["moments", library] + cache) as? [[String: Any]])
        let items = days.reduce(0) { $0 + ($1["photos"] as? Int ?? 0) + ($1["videos"] as? Int ?? 0) }
        #expect(items == 8, "a burst is one item of its day, a Live Photo one")
    }

    @Test func aWarmedLibraryIsListedFromTheCatalogAsTheWalkListsIt() throws {
        try SubtypeLibrary.write(into: library)
        let cache = ["--cache", folder.path + "/cache"]
        #expect(try ThumbsProcess.run(["warm", library, "--quiet"] + cache).status == 0)
        for command in ["albums", "moments", "sizes"] {
            let catalog = try ThumbsProcess.run([command, library, "--json"] + cache)
            let walked = try ThumbsProcess.run([command, library, "--json", "--walk"] + cache)
            #expect(catalog.status == 0 && walked.status == 0)
            #expect(catalog.standardError.contains("from the catalog"), "\(command): \(catalog.standardError)")
            #expect(!walked.standardError.contains("from the catalog"))
            #expect(catalog.standardOutput == walked.standardOutput, "\(command)")
        }
    }

    @Test func probeNamesEachFilesSubtypes() throws {
        try SubtypeLibrary.write(into: library)
        for (path, subtypes) in SubtypeLibrary.files {
            let document = try #require(try json(["probe", library + "/" + path]) as? [String: Any])
            #expect(document["mediaSubtypes"] as? [String] == subtypes, "\(path)")
        }
        let frame = try #require(try json(["probe", library + "/" + SubtypeLibrary.burstFrame(3)]) as? [String: Any])
        let burst = try #require(frame["burst"] as? [String: Any])
        #expect(burst["identifier"] as? String == SubtypeLibrary.burstUUID && frame["mediaSubtypes"] as? [String] == [])
    }
}
