import ThumbsCore

extension MediaSubtypes {
    /// The capture rate, in frames a second, from which a video is slow motion.
    static let highFrameRateThreshold = 100.0

    /// What a video's rates say it is. `frameRate` is the video stream's, what it plays at;
    /// `captureRate` is what the camera captured at where the file states it (Android's
    /// `com.android.capture.fps`, written where the two differ: 120 or 240 for a slow-motion
    /// video stored at 30, 0.5 for a time-lapse played at 30).
    ///
    /// Slow motion is a capture rate of 100 frames a second or more; without a stated capture
    /// rate the stream's is the capture rate, as iPhones store slow motion: a 120 or 240 fps
    /// stream, its slowing down kept in the Photos library, not in the file. A time-lapse is
    /// captured at less than half the rate it plays at.
    init(videoFrameRate frameRate: Double?, captureRate: Double?) {
        self = []
        let frameRate = frameRate.flatMap { $0.isFinite && $0 > 0 ? $0 : nil }
        let captureRate = captureRate.flatMap { $0.isFinite && $0 > 0 ? $0 : nil }
        if let captured = captureRate ?? frameRate, captured >= Self.highFrameRateThreshold {
            insert(.videoHighFrameRate)
        }
        if let frameRate, let captureRate, captureRate < frameRate / 2 {
            insert(.videoTimelapse)
        }
    }
}
