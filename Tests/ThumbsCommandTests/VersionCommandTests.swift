import Foundation
import Testing
import Thumbs
import ThumbsCoreTestSupport
import ThumbsTestSupport
import ThumbsSamples

/// `thumbs version`, and the decoding libraries it and the other commands open only when a file
/// needs one. What a process tree loads is read from the dynamic linker's own account
/// (`LD_DEBUG=files`, written by each process to a file of its own); a render worker, whose
/// descriptors are laid out anew, is not run under it.
@Suite struct VersionCommandTests {
    let folder = TemporaryFolder()

    /// The shared objects of the decoding libraries, by the names they are loaded under.
    private static let decodingObjects = [
        "libvips.so", "libavformat.so", "libavcodec.so", "libheif.so", "libraw_r.so", "libavif.so", "libjxl.so",
    ]

    private func loadedDecodingObjects(_ arguments: [String], environment: [String: String] = [:]) throws -> [String] {
        let log = folder.path + "/ld-\(UUID().uuidString)"
        let outcome = try ThumbsProcess.run(
            arguments, environment: environment.merging(["LD_DEBUG": "files", "LD_DEBUG_OUTPUT": log]) { $1 })
        #expect(outcome.status == 0, "\(arguments): \(outcome.standardError)")
        // Each process writes to LOG.PID, its lines led by its PID; a process forked without an
        // exec (a prestarted render worker) writes to its parent's file, with its own PID.
        let prefix = (log as NSString).lastPathComponent + "."
        var account = ""
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasPrefix(prefix) {
            let pid = name.dropFirst(prefix.count)
            let text = try String(contentsOfFile: folder.path + "/" + name, encoding: .utf8)
            account += text.split(separator: "\n").filter {
                $0.drop(while: { $0 == " " }).hasPrefix(pid + ":")
            }.joined(separator: "\n")
        }
        return Self.decodingObjects.filter { account.contains("file=\($0)") }
    }

    @Test func versionOpensNoDecodingLibrary() throws {
        #expect(try loadedDecodingObjects(["version"]) == [])
        let outcome = try ThumbsProcess.run(["version"])
        #expect(outcome.standardOutput.contains("built against libvips \(DecodingLibrary.libvips.headerVersion)"))
        #expect(outcome.standardOutput.contains("decoding: "))
    }

    @Test func librariesOpensEveryOne() throws {
        #expect(try loadedDecodingObjects(["version", "--libraries"]) == Self.decodingObjects)
        let outcome = try ThumbsProcess.run(["version", "--libraries", "--json"])
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [String: Any])
        #expect((document["builtAgainst"] as? [String: String])?["LibRaw"] == DecodingLibrary.libRaw.headerVersion)
        #expect((document["libraw"] as? String)?.isEmpty == false)
        #expect(document["heicDecoder"] is String)
        #expect(document["jpegXLLoader"] as? String == "jxlload")
        #expect((document["libavif"] as? String)?.isEmpty == false)
    }

    /// A JPEG is probed and rendered without libvips, FFmpeg, libheif or LibRaw, in this process
    /// (isolation "none") or in this process confined (one file): what is opened before
    /// confinement is what the file needs. A CMYK one, which libvips reads, opens libvips alone.
    @Test(arguments: ["none", "process"])
    func aJpegOpensNoDecodingLibraryButACMYKOneLibvips(isolation: String) throws {
        let photo = folder.path + "/photo.jpg"
        try folder.write(try SyntheticImage(width: 640, height: 480).encoded(as: .jpeg), to: "photo.jpg")
        try folder.write(Array("{\"isolation\": \"\(isolation)\"}".utf8), to: "config.json")
        let loaded = try loadedDecodingObjects(
            [
                "render", photo, "--size", "64x64", "-o", folder.path + "/out.jpg", "--config",
                folder.path + "/config.json",
            ])
        #expect(loaded == [])
        try folder.write(
            try SyntheticImage(width: 64, height: 48, pixels: .cmyk).encoded(as: .jpeg), to: "cmyk.jpg")
        let cmyk = try loadedDecodingObjects(
            [
                "render", folder.path + "/cmyk.jpg", "--size", "64x64", "-o", folder.path + "/cmyk-out.jpg",
                "--config", folder.path + "/config.json",
            ])
        #expect(cmyk == ["libvips.so"])
    }

    /// A video's thumbnail is FFmpeg's frame made into a PNG without libvips, in this process
    /// (isolation "none") or confined in it (one file). (Debian's libavcodec loads libjxl itself.)
    @Test(.enabled(if: GeneratedMedia.hasFFmpeg, GeneratedMedia.ffmpegSkipReason), arguments: ["none", "process"])
    func aVideoOpensFFmpegAlone(isolation: String) throws {
        let clip = folder.path + "/clip.mp4"
        try GeneratedMedia.ffmpeg([
            "-f", "lavfi", "-i", "testsrc=size=320x240:rate=10", "-t", "1", "-pix_fmt", "yuv420p", clip,
        ])
        try folder.write(Array("{\"isolation\": \"\(isolation)\"}".utf8), to: "config.json")
        let loaded = try loadedDecodingObjects(
            ["thumbnail", "-s", "128", clip, folder.path + "/clip.png", "--config", folder.path + "/config.json"])
        #expect(loaded.starts(with: ["libavformat.so", "libavcodec.so"]))
        #expect(!loaded.contains("libvips.so") && !loaded.contains("libheif.so"), "\(loaded)")
    }

    /// A HEIC libheif alone renders opens libheif alone in the one-file process (confined): no
    /// libvips, and no FFmpeg, whose decoders pay off only over many files.
    @Test(.enabled(if: SubtypeFiles.hasHeifEnc, SubtypeFiles.heifEncSkipReason))
    func aHeicOpensLibheifAloneInAOneFileProcess() throws {
        let png = try folder.write(try SyntheticImage(width: 900, height: 600).encoded(as: .png), to: "photo.png")
        let heic = folder.path + "/photo.heic"
        let encoded = try ThumbsProcess.run(["-o", heic, png], executablePath: SubtypeFiles.heifEnc)
        try #require(encoded.status == 0, "heif-enc: \(encoded.standardError)")
        try folder.write(Array("{\"isolation\": \"process\"}".utf8), to: "config.json")
        let loaded = try loadedDecodingObjects(
            [
                "thumbnail", "-s", "256", heic, folder.path + "/out.png", "--config", folder.path + "/config.json",
            ])
        #expect(loaded == ["libheif.so"])
    }

    /// A PNG of RGB, with alpha or without, is probed and rendered by libpng without libvips, in
    /// this process or in this process confined (`thumbs thumbnail`'s too); one of 16-bit grey
    /// with alpha, which libvips reads, opens libvips.
    @Test(arguments: ["none", "process"])
    func aPngOpensNoDecodingLibraryButA16BitGreyOneLibvips(isolation: String) throws {
        try folder.write(try SyntheticImage(width: 640, height: 480).encoded(as: .png), to: "photo.png")
        try folder.write(try SyntheticImage(width: 64, height: 48, pixels: .rgba).encoded(as: .png), to: "alpha.png")
        try folder.write(
            try SyntheticImage(width: 64, height: 48, pixels: .greyAlpha16).encoded(as: .png), to: "deep.png")
        try folder.write(Array("{\"isolation\": \"\(isolation)\"}".utf8), to: "config.json")
        func loaded(_ name: String) throws -> [String] {
            try loadedDecodingObjects([
                "render", folder.path + "/" + name, "--size", "64x64", "-o", folder.path + "/\(name).jpg", "--config",
                folder.path + "/config.json",
            ])
        }
        #expect(try loaded("photo.png") == [])
        #expect(try loaded("alpha.png") == [])
        #expect(try loaded("deep.png") == ["libvips.so"])
        // The desktop's thumbnailer: one process, confined, per file.
        for name in ["photo.png", "alpha.png"] {
            let thumbnail = ["thumbnail", "-s", "128", folder.path + "/" + name, folder.path + "/thumbnail.png"]
            #expect(try loadedDecodingObjects(thumbnail) == [], "\(name)")
        }
    }

    /// With FFmpeg's libavformat not loadable, a video fails naming the package to install, and
    /// the photo beside it still renders.
    @Test(.enabled(if: GeneratedMedia.hasFFmpeg, GeneratedMedia.ffmpegSkipReason), arguments: ["none", "process"])
    func aMissingLibraryFailsOnlyItsFilesNamingItsPackage(isolation: String) throws {
        let major = try #require(
            DecodingLibrary.ffmpeg.headerVersion.split(separator: " ").last?.split(separator: ".").first)
        try folder.write([], to: "broken-libraries/libavformat.so.\(major)")
        try folder.write(try SyntheticImage(width: 640, height: 480).encoded(as: .jpeg), to: "library/photo.jpg")
        try GeneratedMedia.ffmpeg([
            "-f", "lavfi", "-i", "testsrc=size=320x240:rate=10", "-t", "1", "-pix_fmt", "yuv420p",
            folder.path + "/library/clip.mp4",
        ])
        try folder.write(Array("{\"isolation\": \"\(isolation)\"}".utf8), to: "config.json")
        let outcome = try ThumbsProcess.run(
            [
                "render", folder.path + "/library", "--size", "64x64", "-o", folder.path + "/out", "--config",
                folder.path + "/config.json",
            ],
            environment: ["LD_LIBRARY_PATH": folder.path + "/broken-libraries"])
        #expect(outcome.status == 1)
        #expect(outcome.standardError.contains("clip.mp4: header not readable (library-unavailable"))
        #expect(outcome.standardError.contains("install Debian's package libavformat\(major)"))
        #expect(FileManager.default.fileExists(atPath: folder.path + "/out/library/photo.jpg.64x64-fit.jpg"))
    }
}
