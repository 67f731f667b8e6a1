import Foundation
import Testing
import Thumbs
import ThumbsCoreTestSupport
import ThumbsTestSupport
import ThumbsSamples

/// Every command, run as a process on a generated library and on ../shared/photos.
@Suite struct EveryCommandTests {
    let folder = TemporaryFolder()
    var cache: String { folder.path + "/cache" }

    private func generatedLibrary() throws -> String {
        let day = ["exif-ifd2-DateTimeOriginal": "2021:06:01 10:00:00"]
        for index in 0..<6 {
            try folder.write(
                try SyntheticImage(width: 900, height: 600, exif: day).encoded(as: .jpeg, orientation: 1 + index),
                to: "library/trip/p\(index).jpg")
        }
        try folder.write(
            try SyntheticImage(width: 400, height: 400, pixels: .rgba).encoded(as: .png), to: "library/art/a.png")
        return folder.path + "/library"
    }

    private func run(_ arguments: [String], expect status: Int32 = 0) throws -> ThumbsProcess.Outcome {
        let outcome = try ThumbsProcess.run(arguments)
        #expect(outcome.status == status, "\(arguments.prefix(2)): \(outcome.standardError)")
        return outcome
    }

    private func everyCommand(on root: String, warmStatus: Int32, photo: String, album: String) throws {
        let common = ["--cache", cache]
        #expect(
            try run(["warm", root, "--json"] + common, expect: warmStatus).standardOutput.contains(
                "\"event\":\"summary\""))
        #expect(try run(["albums", root] + common).standardOutput.contains(album))
        #expect(try run(["moments", root] + common).standardOutput.contains("assets on"))
        #expect(try run(["sizes", root] + common).standardOutput.contains("total"))
        let got = try run(["get", photo, "--size", "128x128", "-o", folder.path + "/got.jpg", "--json"] + common)
        #expect(got.standardOutput.contains("\"degraded\":false"))
        #expect(try VipsRenderer().probe(folder.path + "/got.jpg").pixelSize == PixelSize(width: 128, height: 128))
        #expect(
            try run(["contact-sheet", album, root, "-o", folder.path + "/sheet.jpg"] + common).standardOutput.contains(
                "thumbnails"))
        #expect(try run(["stats"] + common).standardOutput.contains("thumbnails"))
        #expect(try run(["verify"] + common).standardOutput.contains("consistent"))
        #expect(try run(["evict", "--to", "10KB"] + common).standardOutput.contains("evicted"))
        #expect(try run(["compact"] + common).standardOutput.contains("compacted"))
        #expect(try run(["probe", photo]).standardOutput.contains("pixelSize"))
        #expect(
            try run(["render", photo, "--size", "64x64", "-o", folder.path + "/r.webp", "--format", "webp"]).status == 0
        )
        #expect(try run(["thumbnail", "-s", "128", photo, folder.path + "/thumbnail.png"]).status == 0)
        #expect(try VipsRenderer().probe(folder.path + "/thumbnail.png").mediaType == .png)
        #expect(try run(["config", "--roots"]).status == 0)
        #expect(try run(["version", "--libraries"]).standardOutput.contains("camera RAW: LibRaw"))
        let rendered = try run(
            ["render", root, "--size", "64x64", "-o", folder.path + "/rendered", "--json"], expect: warmStatus)
        #expect(rendered.standardOutput.contains("\"event\":\"summary\""))
    }

    @Test func onAGeneratedLibrary() throws {
        let root = try generatedLibrary()
        try everyCommand(on: root, warmStatus: 0, photo: root + "/trip/p2.jpg", album: "trip")
        #expect(try run(["moments", root, "--cache", cache]).standardOutput.contains("2021-06-01"))
    }

    @Test(.enabled(if: SharedPhotos.isPresent, SharedPhotos.skipReason))
    func onTheSharedPhotos() throws {
        try everyCommand(
            on: SharedPhotos.root.path, warmStatus: 1,
            photo: SharedPhotos.root.appendingPathComponent("phone/iphone_13_pro_max.HEIC").path,
            album: "orientation")
    }

    /// Videos and RAW files take every command a photo takes: the iPhone clip is rotated 90°
    /// in its display matrix, so its 128 × 128 thumbnail is cut from an upright poster.
    @Test(.enabled(if: SharedMedia.isPresent, SharedMedia.skipReason))
    func onTheSharedMedia() throws {
        try everyCommand(
            on: SharedMedia.root.path, warmStatus: 1, photo: SharedMedia.path("video/iPhone_XR_IMG_3589.mov"),
            album: "video")
        let raw = try run(["probe", SharedMedia.path("raw/Canon_PowerShot_G2_CRW_0304.CRW")]).standardOutput
        #expect(raw.contains("\"cameraModel\" : \"PowerShot G2\""))
        // The Videos smart album holds the seven videos; its posters are videos that can be
        // drawn, so never the half-copied clip. Moments count the videos on their days.
        let albums = try #require(
            try JSONSerialization.jsonObject(
                with: Data(try run(["albums", SharedMedia.root.path, "--json", "--cache", cache]).standardOutput.utf8))
                as? [[String: Any]])
        let videos = try #require(albums.first { $0["title"] as? String == "Videos" })
        #expect(videos["videos"] as? Int == 7 && videos["photos"] as? Int == 0)
        let keys = try #require(videos["keyAssets"] as? [String])
        #expect(keys.count == 3 && keys.allSatisfy { $0.hasPrefix("video/") }, "\(keys)")
        let days = try #require(
            try JSONSerialization.jsonObject(
                with: Data(try run(["moments", SharedMedia.root.path, "--json", "--cache", cache]).standardOutput.utf8))
                as? [[String: Any]])
        #expect(days.reduce(0) { $0 + ($1["videos"] as? Int ?? 0) } == 7)
        // The iPhone clip's QuickTime creation date puts it on its own day, in its own time zone.
        #expect(days.contains { $0["day"] as? String == "2020-04-17" && $0["videos"] as? Int == 1 })
    }

    @Test func sampleLibraryAndHelp() throws {
        #expect(try run(["sample-library", folder.path + "/sample"]).standardOutput.contains("wrote 15 sample photos"))
        for command in [
            "warm", "watch", "get", "render", "albums", "moments", "sizes", "stats", "evict", "compact",
            "verify", "contact-sheet", "thumbnail", "probe", "config", "sample-library", "version",
        ] {
            let help = try run([command, "--help"])
            #expect(help.standardOutput.contains("Example"), "\(command) --help has an example")
        }
    }
}
