import Foundation
import Testing
import Thumbs
import ThumbsCoreTestSupport
import ThumbsTestSupport
import ThumbsSamples

/// `thumbs-thumbnailer`, the program the desktop's thumbnailer entry runs, as a file manager runs
/// it: it renders as `thumbs thumbnail` does, in its own confined process, and hands the command
/// line to `thumbs thumbnail` where it does not take it.
@Suite struct ThumbnailerProgramTests {
    let folder = TemporaryFolder()

    /// The XDG folders of the run: none holds a configuration unless a test writes one.
    private var environment: [String: String] {
        [
            "XDG_CACHE_HOME": folder.path + "/xdg-cache", "XDG_STATE_HOME": folder.path + "/xdg-state",
            "XDG_CONFIG_HOME": folder.path + "/xdg-config",
        ]
    }

    private func thumbnailer(_ arguments: [String], environment extra: [String: String] = [:]) throws
        -> ThumbsProcess.Outcome
    {
        try ThumbsProcess.run(
            arguments, executable: "thumbs-thumbnailer", in: folder.path,
            environment: environment.merging(extra) { _, added in added })
    }

    private func photo() throws -> String {
        try folder.write(try SyntheticImage(width: 1200, height: 800).encoded(as: .jpeg, orientation: 6), to: "in.jpg")
    }

    private func bytes(_ name: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: folder.path + "/" + name))
    }

    /// A photo, by path or by file URI, gives the PNG `thumbs thumbnail` gives, byte for byte.
    @Test func writesWhatThumbsThumbnailWrites() throws {
        let input = try photo()
        let byPath = try thumbnailer(["-s", "200", input, folder.path + "/path.png"])
        #expect(byPath.status == 0 && byPath.standardError.isEmpty, "\(byPath.standardError)")
        let byURI = try thumbnailer(["--size=200", "file://" + input, folder.path + "/uri.png"])
        #expect(byURI.status == 0, "\(byURI.standardError)")
        let command = try ThumbsProcess.run(
            ["thumbnail", "-s", "200", input, folder.path + "/command.png"], in: folder.path, environment: environment)
        #expect(command.status == 0, "\(command.standardError)")
        #expect(try !bytes("path.png").isEmpty)
        #expect(try bytes("path.png") == bytes("command.png") && bytes("uri.png") == bytes("command.png"))
    }

    /// It renders in its own process, confined by every measure a render worker takes here, and a
    /// file that fails ends it with status 1, one line, and nothing written.
    @Test(
        .voidedBySanitizer("a process takes no seccomp filter, Landlock or limit"))
    func rendersConfinedInItsOwnProcess() throws {
        let offered = WorkerConfinement.available.names.joined(separator: ", ")
        let rendered = try thumbnailer(["-v", "-s", "64", try photo(), folder.path + "/out.png"])
        #expect(rendered.status == 0, "\(rendered.standardError)")
        #expect(
            rendered.standardError.contains("no render worker), confined by \(offered)"), "\(rendered.standardError)")
        let whole = try SyntheticImage(width: 800, height: 600).encoded(as: .jpeg)
        let half = try folder.write(Array(whole.prefix(whole.count / 2)), to: "half.jpg")
        try FileAge.markBeingWritten(half)  // a copy under way: no partial render
        let failed = try thumbnailer(["-s", "64", half, folder.path + "/half.png"])
        #expect(failed.status == 1)
        let lines = failed.standardError.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].hasPrefix("thumbs-thumbnailer: \(half): "), "\(failed.standardError)")
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/half.png"))
    }

    /// A JPEG libjpeg warns about (bytes before its end marker, as some cameras write) renders in
    /// the confined process, which opened no libvips to hand it to.
    @Test func aJPEGLibjpegWarnsAboutIsThumbnailed() throws {
        var bytes = try SyntheticImage(width: 640, height: 480).encoded(as: .jpeg)
        bytes.insert(contentsOf: [UInt8](repeating: 0, count: 16), at: bytes.count - 2)
        let input = try folder.write(bytes, to: "padded.jpg")
        let outcome = try thumbnailer(["-s", "128", input, folder.path + "/padded.png"])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(FileManager.default.fileExists(atPath: folder.path + "/padded.png"))
    }

    /// A camera's photo damaged mid-picture, past libvips' rule of a hundred warnings, renders
    /// in part in the confined process, as a worker's engine would render it.
    @Test(.enabled(if: SharedPhotos.isPresent, SharedPhotos.skipReason))
    func aPhotoDamagedMidPictureIsThumbnailedInPart() throws {
        let input = SharedPhotos.root.appendingPathComponent("broken/corrupted.jpg").path
        let outcome = try thumbnailer(["-s", "256", input, folder.path + "/corrupted.png"])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(FileManager.default.fileExists(atPath: folder.path + "/corrupted.png"))
    }

    /// An option of the command's, a size out of range, a URI of another machine and a
    /// configuration that renders unconfined all go to `thumbs thumbnail`, which answers them.
    @Test func whatItDoesNotTakeGoesToThumbsThumbnail() throws {
        let input = try photo()
        let quiet = try thumbnailer(["--quiet", "-s", "64", input, folder.path + "/quiet.png"])
        #expect(quiet.status == 0 && FileManager.default.fileExists(atPath: folder.path + "/quiet.png"))
        let zero = try thumbnailer(["-s", "0", input, folder.path + "/zero.png"])
        #expect(zero.status == 2 && zero.standardError.contains("-s must be 1...16384"), "\(zero.standardError)")
        let remote = try thumbnailer(["-s", "64", "file://elsewhere/a.jpg", folder.path + "/remote.png"])
        #expect(remote.status == 2 && remote.standardError.contains("only files of this machine"))
        let configuration = try folder.write(Array(#"{"isolation": "none"}"#.utf8), to: "xdg-config/thumbs/config.json")
        let unconfined = try thumbnailer(["-v", "-s", "64", input, folder.path + "/unconfined.png"])
        #expect(unconfined.status == 0, "\(unconfined.standardError)")
        #expect(unconfined.standardError.contains("configuration: \(configuration)"), "\(unconfined.standardError)")
        #expect(!unconfined.standardError.contains("no render worker"))
    }

    /// Without the command to hand a call to, it says so, with the usage status.
    @Test func aMissingCommandIsAUsageError() throws {
        let outcome = try thumbnailer(
            ["--quiet", "-s", "64", try photo(), folder.path + "/out.png"],
            environment: ["THUMBS_COMMAND": folder.path + "/no-such-thumbs"])
        #expect(outcome.status == 2)
        #expect(outcome.standardError.hasPrefix("thumbs-thumbnailer: cannot run \(folder.path)/no-such-thumbs: "))
    }
}
