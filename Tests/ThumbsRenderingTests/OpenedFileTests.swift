import Foundation
import Glibc
import SystemPackage
import Testing
import ThumbsCore
import ThumbsCoreTestSupport
@testable import ThumbsRendering

/// Files are opened beneath their root and nowhere else, by openat2 and by the fallback that
/// opens one component at a time.
@Suite struct OpenedFileTests {
    let folder = TemporaryFolder()
    var root: String { folder.path + "/library" }

    init() throws {
        try folder.write(Array("inside".utf8), to: "library/album/a.jpg")
        try folder.write(Array("secret".utf8), to: "outside/secret.jpg")
        try FileManager.default.createSymbolicLink(
            atPath: root + "/absolute.jpg", withDestinationPath: folder.path + "/outside/secret.jpg")
        try FileManager.default.createSymbolicLink(
            atPath: root + "/album/climbing.jpg", withDestinationPath: "../../outside/secret.jpg")
        try FileManager.default.createSymbolicLink(atPath: root + "/alias.jpg", withDestinationPath: "album/a.jpg")
    }

    private func contents(_ descriptor: Int32) -> String? {
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: 16)
        let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        return String(decoding: bytes.prefix(max(0, count)), as: UTF8.self)
    }

    private func withRoot<T>(_ body: (Int32) -> T) -> T {
        let descriptor = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        defer { close(descriptor) }
        return body(descriptor)
    }

    @Test func opensAFileBeneathItsRoot() throws {
        let file = try OpenedFile.open(ImageLocation(root: FilePath(root), relativePath: "album/a.jpg"))
        #expect(contents(dup(file.descriptor)) == "inside")
        #expect(withRoot { contents(OpenedFile.openByComponents($0, "album/a.jpg")) } == "inside")
    }

    @Test(arguments: ["absolute.jpg", "album/climbing.jpg"])
    func aLinkOutOfTheRootIsNeverFollowed(name: String) {
        let error = #expect(throws: ImagingError.self) {
            try OpenedFile.open(ImageLocation(root: FilePath(root), relativePath: FilePath(name)))
        }
        #expect(
            error?.kind == .unreadable && "\(error!)".contains("out of the library's root"),
            "\(String(describing: error))")
        #expect(withRoot { contents(OpenedFile.openBeneath($0, FilePath(name))) } == nil)
        #expect(withRoot { contents(OpenedFile.openByComponents($0, FilePath(name))) } == nil)
    }

    @Test func dotDotNeverLeavesTheRoot() {
        #expect(throws: ImagingError.self) {
            try OpenedFile.open(ImageLocation(root: FilePath(root), relativePath: "../outside/secret.jpg"))
        }
        #expect(throws: ImagingError.self) {
            try OpenedFile.open(ImageLocation(root: FilePath(root), relativePath: "/etc/passwd"))
        }
    }

    @Test func aLinkThatStaysInsideIsFollowedWhereTheKernelChecksIt() throws {
        let file = try OpenedFile.open(ImageLocation(root: FilePath(root), relativePath: "alias.jpg"))
        #expect(contents(dup(file.descriptor)) == "inside")
        #expect(withRoot { contents(OpenedFile.openByComponents($0, "alias.jpg")) } == nil, "the fallback follows none")
    }

    @Test func readingIsAdvisedOnlyForRegularFilesBeneathTheRoot() throws {
        #expect(mkfifo(root + "/pipe.jpg", 0o644) == 0)
        func advised(_ path: FilePath, first bytes: Int? = nil) -> Bool {
            ImageLocation(root: FilePath(root), relativePath: path).adviseReading(first: bytes)
        }
        #expect(advised("album/a.jpg") && advised("alias.jpg") && advised("album/a.jpg", first: 1 << 20))
        #expect(!advised("absolute.jpg") && !advised("album/climbing.jpg"), "links out of the root are not opened")
        #expect(!advised("pipe.jpg"), "a FIFO is not read, and does not block")
        #expect(!advised("missing.jpg") && !advised("album"))
    }
}
