import Foundation
import Testing
import ThumbsSamples

/// A library holding one generated file of every subtype, for the tests of what the library,
/// the server and the commands make of them: a burst of 12 iPhone frames, a screenshot, an XMP
/// panorama, an XMP portrait, an ISO gain-map (HDR) JPEG, a 240 fps clip, an Android time-lapse
/// and a Live Photo's pair. Needs the `ffmpeg` and `exiftool` commands (``isAvailable``).
package enum SubtypeLibrary {
    package static var isAvailable: Bool { GeneratedMedia.hasFFmpeg && LivePhotoFiles.hasExiftool }
    package static let skipReason: Comment =
        "the ffmpeg or exiftool command is absent: the generated library of every subtype is skipped"

    /// The burst's identifier (its frames' Apple BurstUUID) and its frame count.
    package static let burstUUID = "2F0E6A8C-1B3D-4E5F-9A7B-8C6D5E4F3A2B"
    package static let burstFrames = 12

    /// Each file but the burst's frames, by path inside the root, with its subtypes' names as
    /// the API and `probe` give them.
    package static let files: [(path: String, subtypes: [String])] = [
        ("Screenshots/Screenshot_20240101-120000.png", ["screenshot"]),
        ("sphere.jpg", ["panorama"]),
        ("portrait.jpg", ["depthEffect"]),
        ("hdr.jpg", ["hdr"]),
        ("slomo.mp4", ["highFrameRate"]),
        ("timelapse.mp4", ["timelapse"]),
        ("DCIM/IMG_0001.JPG", ["live"]),
    ]

    /// The path of the burst's frame `index` (0 the first taken).
    package static func burstFrame(_ index: Int) -> String {
        "DCIM/burst/IMG_\(String(format: "%04d", 100 + index)).JPG"
    }

    /// Writes the library into `root` (created).
    package static func write(into root: String) throws {
        func path(_ relative: String) throws -> String {
            let path = root + "/" + relative
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            return path
        }
        for index in 0..<burstFrames {
            let frame = try SubtypeFiles.iPhoneBurstFrame(burstUUID: burstUUID, shade: index)
            try Data(frame).write(to: URL(fileURLWithPath: try path(burstFrame(index))))
        }
        try Data(try SyntheticImage(width: 64, height: 48).encoded(as: .png))
            .write(to: URL(fileURLWithPath: try path("Screenshots/Screenshot_20240101-120000.png")))
        try SubtypeFiles.taggedJPEG(
            at: try path("sphere.jpg"), tags: ["-XMP-GPano:ProjectionType=equirectangular"])
        try SubtypeFiles.taggedJPEG(
            at: try path("portrait.jpg"), tags: ["-XMP-GDepth:Format=RangeInverse", "-XMP-GDepth:Mime=image/jpeg"])
        try Data(try SubtypeFiles.isoGainMapJPEG()).write(to: URL(fileURLWithPath: try path("hdr.jpg")))
        try VideoSubtypeFiles.clip(at: try path("slomo.mp4"), frameRate: 240)
        try VideoSubtypeFiles.androidClip(at: try path("timelapse.mp4"), captureRate: 0.5)
        let identifier = "5D3C6A40-9E84-4F3B-8B0F-0C2B6E0A2F11"
        try Data(try LivePhotoFiles.iPhoneStill(contentIdentifier: identifier))
            .write(to: URL(fileURLWithPath: try path("DCIM/IMG_0001.JPG")))
        try LivePhotoFiles.liveMovie(at: try path("DCIM/IMG_0001.MOV"), contentIdentifier: identifier)
    }

    /// The smart albums the library fills, with their PhotoKit names and counts (a burst once).
    package static let smartAlbums: [String: (subtype: String, count: Int)] = [
        "All Photos": ("smartAlbumUserLibrary", 6), "Videos": ("smartAlbumVideos", 2),
        "Recently Added": ("smartAlbumRecentlyAdded", 8), "Live Photos": ("smartAlbumLivePhotos", 1),
        "Portrait": ("smartAlbumDepthEffect", 1), "Panoramas": ("smartAlbumPanoramas", 1),
        "Time-lapse": ("smartAlbumTimelapses", 1), "Slo-mo": ("smartAlbumSlomoVideos", 1),
        "Bursts": ("smartAlbumBursts", 1), "Screenshots": ("smartAlbumScreenshots", 1), "HDR": ("smartAlbumHDR", 1),
    ]
}
