import Foundation
import Testing
import Thumbs
import ThumbsCoreTestSupport
import ThumbsTestSupport
import ThumbsSamples

/// `thumbs thumbnail`, the desktop thumbnailer, run as a separate process with its own XDG
/// folders, and the `thumbs.thumbnailer` entry that names it.
@Suite struct ThumbnailCommandTests {
    let folder = TemporaryFolder()

    /// The XDG folders of the run: none holds a configuration, and none is to be created.
    private var environment: [String: String] {
        [
            "XDG_CACHE_HOME": folder.path + "/xdg-cache", "XDG_STATE_HOME": folder.path + "/xdg-state",
            "XDG_CONFIG_HOME": folder.path + "/xdg-config",
        ]
    }

    private func thumbnail(_ size: Int, _ input: String, _ output: String) throws -> ThumbsProcess.Outcome {
        try ThumbsProcess.run(
            ["thumbnail", "-s", "\(size)", input, output], in: folder.path, environment: environment)
    }

    /// The PNG at `path`: its pixel size.
    private func png(at path: String) throws -> PixelSize {
        let properties = try VipsRenderer().probe(path)
        #expect(properties.mediaType == .png)
        return properties.pixelSize
    }

    private var leftovers: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path + "/out")) ?? []
        return names.filter { $0.hasPrefix(".") }
    }

    @Test(arguments: [128, 256])
    func rotatedPhotoGivesAnUprightPNGWithinTheSize(size: Int) throws {
        let input = try folder.write(
            try SyntheticImage(width: 1200, height: 800).encoded(as: .jpeg, orientation: 6), to: "in.jpg")
        try folder.write([], to: "out/.keep")
        let output = folder.path + "/out/thumb.png"
        let outcome = try thumbnail(size, input, output)
        #expect(outcome.status == 0, "\(outcome.standardError)")
        // The file's pixels are 800 wide and 1200 high, turned by its orientation tag to 1200x800.
        let pixelSize = try png(at: output)
        let height = Double(size) * 800 / 1200
        #expect(pixelSize.width == size && abs(Double(pixelSize.height) - height) < 1, "\(pixelSize)")
        #expect(leftovers == [".keep"])
        for xdg in ["xdg-cache", "xdg-state", "xdg-config"] {
            #expect(!FileManager.default.fileExists(atPath: folder.path + "/" + xdg), "\(xdg) was created")
        }
    }

    /// With --verbose the command names what it put its own process under before it decoded the
    /// file, the same measures `thumbs version` says this kernel offers (a failed file included).
    @Test(
        .voidedBySanitizer("a process takes no seccomp filter, Landlock or limit"),
        arguments: [true, false])
    func verboseNamesTheConfinement(readable: Bool) throws {
        let input = try folder.write(
            Array(try SyntheticImage(width: 300, height: 200).encoded(as: .jpeg).prefix(readable ? .max : 300)),
            to: "in.jpg")
        let outcome = try ThumbsProcess.run(
            ["thumbnail", "--verbose", "-s", "64", input, folder.path + "/out.png"], in: folder.path,
            environment: environment)
        #expect(outcome.status == (readable ? 0 : 1), "\(outcome.standardError)")
        let offered = WorkerConfinement.available.names.joined(separator: ", ")
        #expect(outcome.standardError.contains("no render worker), confined by \(offered)"), "\(outcome.standardError)")
    }

    /// `thumbnail` and `render` of one file render in their own process: with no worker program
    /// to start they still succeed, and write what the unconfined renderer (isolation "none")
    /// writes, byte for byte.
    @Test(.voidedBySanitizer("a process takes no seccomp filter, Landlock or limit"))
    func oneFileNeedsNoRenderWorkerAndRendersTheSame() throws {
        let input = try folder.write(
            try SyntheticImage(width: 1200, height: 800).encoded(as: .jpeg, orientation: 6), to: "in.jpg")
        let unconfined = try folder.write(Array(#"{"isolation": "none"}"#.utf8), to: "none.json")
        var noWorker = environment
        noWorker["THUMBS_RENDER_WORKER"] = folder.path + "/no-such-worker"
        let commands: [(String, [String])] = [
            ("png", ["thumbnail", "-s", "200", input]), ("jpg", ["render", input, "--size", "200x200", "-o"]),
        ]
        for (format, command) in commands {
            let confined = try ThumbsProcess.run(
                command + [folder.path + "/confined.\(format)", "--verbose"], in: folder.path, environment: noWorker)
            #expect(confined.status == 0, "\(confined.standardError)")
            #expect(confined.standardError.contains("rendered in this process"), "\(confined.standardError)")
            let inProcess = try ThumbsProcess.run(
                command + [folder.path + "/none.\(format)", "--config", unconfined], in: folder.path,
                environment: environment)
            #expect(inProcess.status == 0, "\(inProcess.standardError)")
            let bytes = try [folder.path + "/confined.\(format)", folder.path + "/none.\(format)"].map {
                try Data(contentsOf: URL(fileURLWithPath: $0))
            }
            #expect(!bytes[0].isEmpty && bytes[0] == bytes[1], "\(format)")
        }
    }

    @Test func smallPictureIsNotEnlarged() throws {
        let input = try folder.write(
            try SyntheticImage(width: 100, height: 60, pixels: .rgba).encoded(as: .png), to: "small.png")
        let outcome = try thumbnail(256, input, folder.path + "/small-thumb.png")
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(try png(at: folder.path + "/small-thumb.png") == PixelSize(width: 100, height: 60))
    }

    @Test func fileURIWithEscapesIsDecoded() throws {
        try folder.write(try SyntheticImage(width: 600, height: 400).encoded(as: .png), to: "my photos/a b.png")
        let uri = "file://" + folder.path + "/my%20photos/a%20b.png"
        let outcome = try thumbnail(128, uri, folder.path + "/uri.png")
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let pixelSize = try png(at: folder.path + "/uri.png")
        #expect(pixelSize.width == 128 && (85...86).contains(pixelSize.height), "\(pixelSize)")
    }

    @Test func otherURISchemesAreUsageErrors() throws {
        let outcome = try thumbnail(128, "http://example.com/a.jpg", folder.path + "/web.png")
        #expect(outcome.status == 2, "\(outcome.standardError)")
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/web.png"))
    }

    @Test(.enabled(if: GeneratedMedia.hasFFmpeg, GeneratedMedia.ffmpegSkipReason))
    func videoGivesItsPosterFrame() throws {
        let input = folder.path + "/clip.mp4"
        try GeneratedMedia.ffmpeg([
            "-f", "lavfi", "-i", "testsrc=size=320x240:rate=10", "-t", "1", "-pix_fmt", "yuv420p", input,
        ])
        let outcome = try thumbnail(128, input, folder.path + "/clip.png")
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(try png(at: folder.path + "/clip.png") == PixelSize(width: 128, height: 96))
    }

    @Test func truncatedFileExitsOneAndWritesNothing() throws {
        let whole = try SyntheticImage(width: 800, height: 600).encoded(as: .jpeg)
        let input = try folder.write(Array(whole.prefix(whole.count / 2)), to: "half.jpg")
        try FileAge.markBeingWritten(input)  // a copy under way: no partial render
        try folder.write([], to: "out/.keep")
        let outcome = try thumbnail(128, input, folder.path + "/out/half.png")
        #expect(outcome.status == 1)
        let lines = outcome.standardError.split(separator: "\n").filter { !$0.contains("render workers run without") }
        #expect(lines.count == 1 && lines[0].contains("truncated"), "\(outcome.standardError)")
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/out/half.png"))
        #expect(leftovers == [".keep"])
    }

    @Test func missingFileExitsOneAndWritesNothing() throws {
        let outcome = try thumbnail(128, folder.path + "/nowhere.jpg", folder.path + "/nowhere.png")
        #expect(outcome.status == 1, "\(outcome.standardError)")
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/nowhere.png"))
    }

    /// The entry parses as a key file, runs the desktop's thumbnailer (`thumbs-thumbnailer`, which
    /// hands what it does not take to this command), and lists only types Thumbs reads.
    @Test func thumbnailerEntryListsTypesThumbsReads() throws {
        let entry = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("deploy/freedesktop/thumbs.thumbnailer")
        let lines = try String(contentsOf: entry, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(lines.first == "[Thumbnailer Entry]")
        var keys: [String: String] = [:]
        for line in lines.dropFirst() where !line.isEmpty && !line.hasPrefix("#") {
            let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
            try #require(parts.count == 2, "not a key=value line: \(line)")
            #expect(keys.updateValue(parts[1], forKey: parts[0]) == nil, "\(parts[0]) given twice")
        }
        #expect(keys["TryExec"] == "thumbs-thumbnailer")
        #expect(keys["Exec"] == "thumbs-thumbnailer -s %s %u %o")
        let types = try #require(keys["MimeType"]).split(separator: ";").map(String.init)
        let mediaTypes = Set(MediaType.allCases.compactMap(\.mimeType))
        #expect(mediaTypes.isSubset(of: types), "\(mediaTypes.subtracting(types))")
        // HEIC is shared-mime-info's alias of HEIF, 3GPP an ISO base media file read as MP4;
        // the camera RAW types are each camera's, by extension, all read by LibRaw.
        let others: Set = [
            "image/heic", "video/3gpp", "image/x-adobe-dng", "image/x-canon-cr2", "image/x-canon-cr3",
            "image/x-canon-crw", "image/x-nikon-nef", "image/x-nikon-nrw", "image/x-sony-arw", "image/x-sony-srf",
            "image/x-sony-sr2", "image/x-olympus-orf", "image/x-panasonic-rw2", "image/x-fuji-raf",
            "image/x-pentax-pef", "image/x-kodak-kdc", "image/x-kodak-dcr", "image/x-minolta-mrw",
            "image/x-sigma-x3f",
        ]
        for type in types { #expect(mediaTypes.contains(type) || others.contains(type), "\(type)") }
        #expect(Set(types).count == types.count, "a type listed twice")
    }
}

extension ThumbnailCommandTests {
    /// With `--hdr gainmap`, an HDR photo's thumbnail is an Ultra HDR JPEG; without, the PNG.
    @Test(.enabled(if: SharedPhotos.isPresent, SharedPhotos.skipReason))
    func aGainMapIsAskedForByHDRGainmap() throws {
        let input = SharedPhotos.root.appendingPathComponent("exports/seine_sdr_gainmap_srgb.jpg").path
        let output = folder.path + "/hdr.jpg"
        let outcome = try ThumbsProcess.run(
            ["thumbnail", "-s", "256", "--hdr", "gainmap", input, output], in: folder.path, environment: environment)
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let bytes = try #require(FileManager.default.contents(atPath: output).map(Array.init))
        #expect(UltraHDRJPEG.gainMapRange(in: bytes, length: bytes.count) != nil)
        #expect(try VipsRenderer().probe(output).pixelSize == PixelSize(width: 256, height: 192))
        #expect(try thumbnail(256, input, folder.path + "/sdr.png").status == 0)
        #expect(try png(at: folder.path + "/sdr.png") == PixelSize(width: 256, height: 192))
    }
}
