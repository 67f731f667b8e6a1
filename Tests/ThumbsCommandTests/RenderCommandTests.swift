import Foundation
import Testing
import Thumbs
import ThumbsCoreTestSupport
import ThumbsTestSupport
import ThumbsSamples

/// `thumbs render` and `thumbs probe`, run as a separate process.
@Suite struct RenderCommandTests {
    let folder = TemporaryFolder()

    @Test func rendersOneFileToTheRequestedBox() throws {
        let input = try folder.write(
            try SyntheticImage(width: 1200, height: 800).encoded(as: .jpeg, orientation: 6),
            to: "in.jpg")
        let output = folder.path + "/out.webp"
        let outcome = try ThumbsProcess.run([
            "render", input, "--size", "256x256", "--mode", "fill",
            "--format", "webp", "-o", output,
        ])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(outcome.standardOutput.contains("256x256 webp"))
        let properties = try VipsRenderer().probe(output)
        #expect(properties.mediaType == .webp && properties.pixelSize == PixelSize(width: 256, height: 256))
    }

    @Test func badFileGivesOneLineAndExitOne() throws {
        let input = try folder.write(Array(repeating: 0x41, count: 100), to: "notes.jpg")
        let outcome = try ThumbsProcess.run(["render", input, "--size", "64x64", "-o", folder.path + "/x.jpg"])
        #expect(outcome.status == 1)
        let lines = outcome.standardError.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].contains("unsupported-format"), "\(outcome.standardError)")
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/x.jpg"))
    }

    @Test func badArgumentsExitTwo() throws {
        #expect(try ThumbsProcess.run(["render", "x.jpg", "--size", "big", "-o", "y.jpg"]).status == 2)
        let config = try folder.write(Array(#"{"renditions": [{"name": "a", "size": "huge"}]}"#.utf8), to: "bad.json")
        let outcome = try ThumbsProcess.run(["render", "--config", config])
        #expect(outcome.status == 2)
        #expect(outcome.standardError.contains("renditions[0].size"), "\(outcome.standardError)")
        let repeated = try folder.write(Array(#"{"serve": {"port": 8080, "port": 8081}}"#.utf8), to: "twice.json")
        let twice = try ThumbsProcess.run(["render", "--config", repeated])
        #expect(twice.status == 2)
        #expect(twice.standardError.contains(".serve.port: the key is written twice"), "\(twice.standardError)")
    }

    @Test func rendersAFolderReportingEachBadFileAndGoingOn() throws {
        let library = TemporaryFolder("thumbs-library")
        try library.write(try SyntheticImage(width: 800, height: 600).encoded(as: .jpeg), to: "a/one.jpg")
        try library.write(try SyntheticImage(width: 600, height: 800, pixels: .rgba).encoded(as: .png), to: "b/two.png")
        try library.write([], to: "b/empty.jpg")
        try library.write(Array("notes".utf8), to: "b/readme.txt")
        let outcome = try ThumbsProcess.run(["render", library.path, "-o", folder.path + "/thumbnails"])
        #expect(outcome.status == 1)
        #expect(outcome.standardOutput.contains("empty.jpg: empty-file"))
        #expect(outcome.standardOutput.contains("rendered 2 of 3 files (4 thumbnails"), "\(outcome.standardOutput)")
        let name = URL(fileURLWithPath: library.path).lastPathComponent
        for rendition in ["grid", "preview"] {
            #expect(
                FileManager.default.fileExists(atPath: "\(folder.path)/thumbnails/\(name)/a/one.jpg.\(rendition).jpg"))
        }
    }

    @Test func controlCharactersInNamesAreShownEscaped() throws {
        let library = TemporaryFolder("thumbs-library")
        // A name that would set the terminal's title and forge a line of the report.
        try library.write(Array("notes".utf8), to: "\u{1B}]0;pwned\u{07}\nrendered 9 of 9 photos.jpg")
        let outcome = try ThumbsProcess.run(["render", library.path, "-o", folder.path + "/thumbnails"])
        #expect(outcome.status == 1)
        #expect(!outcome.standardOutput.contains("\u{1B}") && !outcome.standardOutput.contains("\u{07}"))
        let failed = outcome.standardOutput.split(separator: "\n").filter { $0.hasPrefix("failed ") }
        #expect(
            failed.count == 1 && failed[0].contains(#"\u{1B}]0;pwned\u{7}\nrendered 9 of 9 photos.jpg"#), "\(failed)")
        let json = try ThumbsProcess.run(["render", library.path, "-o", folder.path + "/thumbnails", "--json"])
        #expect(
            json.standardOutput.contains(#"\u001b]0;pwned\u0007\nrendered"#), "JSON keeps the name, escaped as JSON")
    }

    @Test func renditionNamesCannotLeaveTheOutputFolder() throws {
        let input = try folder.write(try SyntheticImage(width: 300, height: 200).encoded(as: .jpeg), to: "in.jpg")
        let config = try folder.write(
            Array(#"{"renditions": [{"name": "/../../../../escaped", "size": "64x64"}]}"#.utf8), to: "config.json")
        let outcome = try ThumbsProcess.run(["render", input, "-o", folder.path + "/out/", "--config", config])
        #expect(outcome.status == 2)
        #expect(
            outcome.standardError.contains(".renditions[0].name: expected 1 to 64 characters"),
            "\(outcome.standardError)")
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/out"))
    }

    @Test func foldersAreWalkedByTheLibraryRules() throws {
        let library = TemporaryFolder("thumbs-walk"), outside = TemporaryFolder("thumbs-outside")
        let jpeg = try SyntheticImage(width: 300, height: 200).encoded(as: .jpeg)
        try library.write(jpeg, to: "photos/seen.jpg")
        try library.write(jpeg, to: "photos/.hidden/unseen.jpg")
        let secret = try outside.write(jpeg, to: "secret.jpg")
        try FileManager.default.createSymbolicLink(
            atPath: library.path + "/photos/link.jpg", withDestinationPath: secret)
        let outcome = try ThumbsProcess.run([
            "render", library.path + "/photos", "--size", "64x64", "-o", folder.path + "/out",
        ])
        #expect(outcome.status == 0, "\(outcome.standardOutput) \(outcome.standardError)")
        #expect(outcome.standardOutput.contains("rendered 1 of 1 files"))
        #expect(outcome.standardError.contains("link.jpg: symbolic link out of the library"))
        let written = try FileManager.default.subpathsOfDirectory(atPath: folder.path + "/out")
        #expect(
            written.filter { $0.hasSuffix(".jpg") && !$0.hasSuffix("/") }.sorted() == ["photos/seen.jpg.64x64-fit.jpg"])
    }

    @Test func oneFileToOneFileNeedsOneRendition() throws {
        let input = try folder.write(try SyntheticImage(width: 600, height: 400).encoded(as: .jpeg), to: "in.jpg")
        let toFile = try ThumbsProcess.run(["render", input, "-o", folder.path + "/out.jpg"])
        #expect(toFile.status == 2 && toFile.standardError.contains("needs --size"), "\(toFile.standardError)")
        let toFolder = try ThumbsProcess.run(["render", input, "-o", folder.path + "/out/", "--format", "webp"])
        #expect(toFolder.status == 0, "\(toFolder.standardError)")
        for rendition in ["grid", "preview"] {
            #expect(FileManager.default.fileExists(atPath: folder.path + "/out/in.jpg.\(rendition).webp"))
        }
    }

    @Test func foldersWithTheSameNameDoNotOverwriteEachOther() throws {
        let first = TemporaryFolder("thumbs-a"), second = TemporaryFolder("thumbs-b")
        for library in [first, second] {
            try library.write(try SyntheticImage(width: 300, height: 200).encoded(as: .jpeg), to: "DCIM/one.jpg")
        }
        let outcome = try ThumbsProcess.run([
            "render", first.path + "/DCIM", second.path + "/DCIM",
            "--size", "64x64", "-o", folder.path + "/all",
        ])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(FileManager.default.fileExists(atPath: folder.path + "/all/DCIM/one.jpg.64x64-fit.jpg"))
        #expect(FileManager.default.fileExists(atPath: folder.path + "/all/DCIM-2/one.jpg.64x64-fit.jpg"))
    }

    @Test func probePrintsJSON() throws {
        let input = try folder.write(try SyntheticImage(width: 300, height: 200).encoded(as: .png), to: "p.png")
        let outcome = try ThumbsProcess.run(["probe", input])
        #expect(outcome.status == 0)
        let properties = try JSONDecoder().decode(ImageProperties.self, from: Data(outcome.standardOutput.utf8))
        #expect(properties.mediaType == .png && properties.pixelSize == PixelSize(width: 300, height: 200))
    }

    @Test(.enabled(if: SharedPhotos.isPresent, SharedPhotos.skipReason))
    func everySharedPhotoRendersOrFailsInOneLine() throws {
        let outcome = try ThumbsProcess.run([
            "render", SharedPhotos.root.path, "--size", "128x128",
            "-o", folder.path + "/shared",
        ])
        let failures = outcome.standardOutput.split(separator: "\n").filter { $0.hasPrefix("failed ") }
        let expected = SharedPhotos.entries.filter { $0.expectedError != nil }
        #expect(outcome.status == 1)
        #expect(failures.count == expected.count, "\(outcome.standardOutput)")
        #expect(
            outcome.standardOutput.contains(
                "rendered \(SharedPhotos.entries.count - expected.count) of \(SharedPhotos.entries.count) files"))
    }
}
