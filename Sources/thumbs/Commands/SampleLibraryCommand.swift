import ArgumentParser
import Foundation
import Thumbs

struct SampleLibraryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sample-library",
        abstract: "Generate a small library of synthetic photos to try Thumbs on.",
        discussion: """
            Writes photo-like images in several formats, sizes and EXIF orientations (and one \
            truncated file, to show how damaged files are reported: a failure while it may \
            still be being written, then a partial thumbnail) into FOLDER.

            Example:
              thumbs sample-library /tmp/sample-photos
            """)

    @Argument(help: ArgumentHelp("Folder to create.", valueName: "FOLDER"))
    var folder: String

    func run() async throws {
        let root = URL(fileURLWithPath: folder)
        var written = 0
        for sample in SampleLibrary.samples {
            let target = root.appendingPathComponent(sample.path)
            try FileManager.default.createDirectory(
                at: target.deletingLastPathComponent(),
                withIntermediateDirectories: true)
            try Data(try sample.bytes()).write(to: target)
            written += 1
        }
        print("wrote \(written) sample photos to \(root.path.escapedForTerminal)")
    }
}
