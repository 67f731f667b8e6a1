import Foundation

/// Slow-motion and time-lapse videos made by the `ffmpeg` command: clips at a given frame rate,
/// tagged with the QuickTime metadata phones write (Apple's `com.apple.quicktime.*` keys,
/// Android's `com.android.capture.fps`).
package enum VideoSubtypeFiles {
    /// The capture-rate key Android's MediaRecorder writes in a slow-motion or time-lapse MP4.
    package static let androidCaptureRate = "com.android.capture.fps"

    /// Half a second at `frameRate` frames a second, 64x48, at `path` (MP4 or QuickTime by its
    /// extension), with `tags` as `mdta` keys in the movie's metadata, each text (FFmpeg writes
    /// no other kind).
    package static func clip(at path: String, frameRate: Int, tags: KeyValuePairs<String, String> = [:]) throws {
        let metadata = tags.flatMap { ["-metadata", "\($0.key)=\($0.value)"] }
        try GeneratedMedia.ffmpeg(
            ["-f", "lavfi", "-i", "testsrc=size=64x48:rate=\(frameRate)", "-t", "0.5", "-c:v", "libx264"]
                + ["-movflags", "use_metadata_tags"] + metadata + [path])
    }

    /// A 30 fps MP4 at `path` as Android writes a video captured at `captureRate` frames a
    /// second: `com.android.capture.fps` a big-endian float32 (QuickTime's data type 23). FFmpeg
    /// writes the key as text, so it writes a four-byte placeholder that is then made a float.
    package static func androidClip(at path: String, captureRate: Float) throws {
        let placeholder = Array("@@@@".utf8)
        try clip(at: path, frameRate: 30, tags: [androidCaptureRate: String(decoding: placeholder, as: UTF8.self)])
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        // A `data` atom: its size, "data", the type (1, UTF-8), the locale, then the value.
        guard
            let value = bytes.indices.dropLast(3).first(where: { Array(bytes[$0..<$0 + 4]) == placeholder }),
            value >= 16, Array(bytes[value - 12..<value - 8]) == Array("data".utf8)
        else { throw GeneratedMedia.GenerationFailure(tool: "ffmpeg", message: "no \(androidCaptureRate) atom") }
        bytes.replaceSubrange(value - 8..<value - 4, with: bigEndian(23))
        bytes.replaceSubrange(value..<value + 4, with: bigEndian(captureRate.bitPattern))
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) }
    }
}
