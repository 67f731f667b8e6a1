import Foundation
import SystemPackage
import Testing
import ThumbsCore
import ThumbsCoreTestSupport
@testable import ThumbsLibrary
import ThumbsRendering
import ThumbsTesting

@Suite struct LibraryWalkerTests {
    let folder = TemporaryFolder()
    var root: String { folder.path + "/library" }

    private func walk(includeHidden: Bool = false, limit: Int = 50) -> (
        files: [String], issues: [LibraryIssue], walker: LibraryWalker
    ) {
        let walker = LibraryWalker(root: root, includeHidden: includeHidden)
        var files: [String] = [], issues: [LibraryIssue] = []
        while true {
            let step = walker.next(limit: limit)
            #expect(step.files.count <= limit)
            files += step.files.map(\.relativePath)
            issues += step.issues
            if step.finished { break }
        }
        return (files.sorted(), issues, walker)
    }

    /// A file dated past 2262 (ext4 keeps times until 2446) is walked, with the fingerprint
    /// its render checks the open file against.
    @Test func aFileDatedPastWhatNanosecondsHoldIsWalked() throws {
        let path = try folder.write([1], to: "library/future.jpg")
        let time = timespec(tv_sec: 10_413_792_000, tv_nsec: 0)  // 2300-01-01
        #expect(utimensat(AT_FDCWD, path, [time, time], 0) == 0)
        let walker = LibraryWalker(root: root, includeHidden: false)
        var files: [LibraryWalker.File] = []
        while true {
            let step = walker.next(limit: 10)
            files += step.files
            if step.finished { break }
        }
        #expect(files.map(\.relativePath) == ["future.jpg"])
        #expect(files.first?.fingerprint == (try FileFingerprint(path: path)))
    }

    @Test func skipsHiddenUnlessAsked() throws {
        try folder.write([1], to: "library/a.jpg")
        try folder.write([1], to: "library/.b.jpg")
        try folder.write([1], to: "library/.hidden/c.jpg")
        #expect(walk().files == ["a.jpg"])
        #expect(walk(includeHidden: true).files == [".b.jpg", ".hidden/c.jpg", "a.jpg"])
    }

    @Test func refusesSymlinksOutOfTheRootAndFollowsThoseInside() throws {
        try folder.write([1], to: "library/inside/a.jpg")
        try folder.write([2], to: "outside/secret.jpg")
        try FileManager.default.createSymbolicLink(
            atPath: root + "/escape.jpg", withDestinationPath: folder.path + "/outside/secret.jpg")
        try FileManager.default.createSymbolicLink(
            atPath: root + "/escape-folder", withDestinationPath: folder.path + "/outside")
        try FileManager.default.createSymbolicLink(
            atPath: root + "/alias.jpg", withDestinationPath: root + "/inside/a.jpg")
        try FileManager.default.createSymbolicLink(atPath: root + "/inside/loop", withDestinationPath: root)
        let result = walk()
        #expect(result.files == ["alias.jpg", "inside/a.jpg"])
        let refused = result.issues.compactMap { issue -> String? in
            if case .symlinkOutsideRoot = issue.reason { return issue.path }
            return nil
        }
        #expect(Set(refused) == ["escape.jpg", "escape-folder"])
    }

    /// Names are bytes: one that is not UTF-8 is walked, kept exact for opening, and shown
    /// with its odd bytes as \xHH.
    @Test func namesThatAreNotUTF8AreWalkedAsBytes() async throws {
        try folder.write(SniffedImage.jpeg(), to: "library/plain.jpg")
        let jpeg = SniffedImage.jpeg(length: 80)
        try folder.write(jpeg, toRawName: Array("library/caf".utf8) + [0xE9] + Array(".jpg".utf8))
        try folder.write(jpeg, toRawName: Array("library/d".utf8) + [0xFF, 0xFE] + Array("/x.jpg".utf8))
        let walker = LibraryWalker(root: root, includeHidden: false)
        var files: [LibraryWalker.File] = []
        while true {
            let step = walker.next(limit: 10)
            files += step.files
            #expect(step.issues.isEmpty, "\(step.issues)")
            if step.finished { break }
        }
        #expect(Set(files.map(\.relativePath)) == ["plain.jpg", "caf\\xE9.jpg", "d\\xFF\\xFE/x.jpg"])
        let odd = try #require(files.first { $0.relativePath == "caf\\xE9.jpg" })
        #expect(odd.path.withPlatformString { strlen($0) } == 8, "the path holds the byte itself, not its display")
        let location = ImageLocation(root: FilePath(root), relativePath: odd.path)
        let inspection = try await InMemoryRenderer().inspect(location)
        #expect(inspection.mediaType == .jpeg && inspection.fingerprint.size == 80, "the file itself was opened")
    }

    @Test func specialFilesAreNeverOpened() throws {
        try folder.write([1], to: "library/a.jpg")
        #expect(mkfifo(root + "/pipe.jpg", 0o644) == 0)
        #expect(walk().files == ["a.jpg"])
    }

    @Test func memoryIsOneOpenFolderPerLevel() throws {
        for index in 0..<300 {
            try folder.write([UInt8(index % 256)], to: "library/level1/level2/file\(index).jpg")
            try folder.write([1], to: "library/level1/other\(index % 7)/file\(index).jpg")
        }
        let result = walk(limit: 10)
        #expect(result.files.count == 600)
        #expect(result.walker.peakOpenFolders <= 3)
    }
}
