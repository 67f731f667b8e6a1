import Foundation
import Testing
import ThumbsImaging
@testable import ThumbsLibrary
import ThumbsStore
import ThumbsSupport
import ThumbsTestSupport
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
