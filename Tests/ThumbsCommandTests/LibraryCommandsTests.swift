import Foundation
import Testing
import Thumbs
import ThumbsCoreTestSupport
import ThumbsTestSupport
import ThumbsSamples

/// `thumbs albums`, `thumbs moments`, `thumbs sizes`, run as a user would.
@Suite(.enabled(if: SharedPhotos.isPresent, SharedPhotos.skipReason))
struct LibraryCommandsTests {
    let folder = TemporaryFolder()

    private func run(_ command: String) throws -> ThumbsProcess.Outcome {
        try ThumbsProcess.run([command, SharedPhotos.root.path, "--cache", folder.path + "/cache", "--json"])
    }

    private func json(_ outcome: ThumbsProcess.Outcome) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8))
    }

    @Test func albumsCountsEveryFolder() throws {
        let outcome = try run("albums")
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let albums = try #require(try json(outcome) as? [[String: Any]])
        let photos = Dictionary(uniqueKeysWithValues: albums.map { ($0["title"] as! String, $0["photos"] as! Int) })
        #expect(photos["All Photos"] == 73 && photos["orientation"] == 18 && photos["broken"] == 9)
        #expect(photos["Live Photos"] == 1, "the Samsung motion photo")
        #expect(photos["HDR"] == 4, "pictures with a gain map")
        #expect(outcome.standardError.contains("not_an_image.jpg"), "issues are reported on stderr")
    }

    @Test func momentsAreNewestFirst() throws {
        let outcome = try run("moments")
        #expect(outcome.status == 0)
        let days = try #require(try json(outcome) as? [[String: Any]])
        let names = days.map { $0["day"] as! String }
        #expect(names == names.sorted(by: >))
        #expect(days.reduce(0) { $0 + ($1["photos"] as! Int) } == 73)
        #expect(names.contains("2022-02-16"))
    }

    @Test func verboseSaysMoreAndQuietSaysLess() throws {
        let verbose = try ThumbsProcess.run([
            "sizes", SharedPhotos.root.path, "--cache", folder.path + "/cache", "--verbose",
        ])
        #expect(
            verbose.status == 0 && verbose.standardError.contains("debug") && verbose.standardError.contains("cache: "))
        let quiet = try ThumbsProcess.run([
            "sizes", SharedPhotos.root.path, "--cache", folder.path + "/cache", "--quiet",
        ])
        #expect(quiet.status == 0 && quiet.standardError.isEmpty, "\(quiet.standardError)")
        #expect(quiet.standardOutput.contains("total"))
    }

    @Test func sizesComeFromTheMetadataCacheTheSecondTime() throws {
        let first = try run("sizes")
        let second = try run("sizes")
        let cold = try #require(try json(first) as? [String: Any])
        let warm = try #require(try json(second) as? [String: Any])
        let expected = SharedPhotos.entries.filter {
            !["broken/empty.jpg", "broken/not_an_image.jpg"].contains($0.relativePath)
        }
        .reduce(0) { $0 + $1.fileSize }
        #expect(cold["totalBytes"] as? Int == expected)
        #expect(warm["totalBytes"] as? Int == expected)
        #expect(warm["filesRead"] as? Int == 0, "nothing is read when the cache is warm")
        #expect((cold["filesRead"] as? Int ?? 0) > 70)
    }
}

/// Unreadable folders and files, as an unprivileged user sees them (root reads everything, so
/// the command runs as `nobody` through runuser, where that is possible).
@Suite(.enabled(if: UnprivilegedRun.isPossible, "needs root, runuser and a thumbs binary 'nobody' can run: skipped"))
struct UnreadableLibraryTests {
    let folder = TemporaryFolder()

    @Test func unreadableFolderAndFileAreListedNotFatal() throws {
        let photo = try SyntheticImage(width: 64, height: 48).encoded(as: .jpeg)
        try folder.write(photo, to: "library/open/a.jpg")
        try folder.write(photo, to: "library/secret/b.jpg")
        let locked = try folder.write(photo, to: "library/locked.jpg")
        let cache = folder.path + "/cache"
        try FileManager.default.createDirectory(atPath: cache, withIntermediateDirectories: true)
        chmod(folder.path, 0o755)
        chmod(cache, 0o777)
        chmod(folder.path + "/library/secret", 0)
        chmod(locked, 0)
        let outcome = try ThumbsProcess.run(
            [
                "-u", "nobody", "--", ThumbsProcess.executable().path, "albums",
                folder.path + "/library", "--cache", cache, "--json",
            ],
            executablePath: "/usr/sbin/runuser")
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(outcome.standardError.contains("secret/: folder not readable (Permission denied)"))
        #expect(outcome.standardError.contains("locked.jpg: not readable"))
        #expect(outcome.standardOutput.contains("\"open/a.jpg\""))
    }
}

enum UnprivilegedRun {
    static let isPossible: Bool = {
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/sbin/runuser") else { return false }
        let probe = try? ThumbsProcess.run(
            ["-u", "nobody", "--", ThumbsProcess.executable().path, "--help"],
            executablePath: "/usr/sbin/runuser")
        return probe?.status == 0
    }()
}
