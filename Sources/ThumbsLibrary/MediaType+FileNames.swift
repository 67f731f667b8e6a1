import ThumbsCore
import ThumbsRendering

extension MediaType {
    private static let imageExtensions: Set = [
        "jpg", "jpeg", "jpe", "png", "gif", "webp", "tif", "tiff", "heic", "heif", "hif", "avif",
        "jxl",
    ]
    private static let otherMediaExtensions: Set = [
        "mp4", "m4v", "mov", "mkv", "webm", "avi", "dng", "nef", "cr2", "cr3", "crw", "arw", "orf", "rw2", "raf",
        "kdc", "gpr", "pef", "srw",
    ]

    /// Whether a file's name says photo or video (only used to decide whether a non-media file
    /// is worth reporting: the content always decides what a file is).
    public static func isMediaFileName(_ name: String) -> Bool {
        fileExtension(name).map { imageExtensions.contains($0) || otherMediaExtensions.contains($0) } ?? false
    }

    /// Whether a file's name says an image Thumbs renders (same caveat).
    public static func isImageFileName(_ name: String) -> Bool {
        fileExtension(name).map(imageExtensions.contains) ?? false
    }

    private static func fileExtension(_ name: String) -> String? {
        guard let dot = name.lastIndex(of: "."), !name[dot...].contains("/") else { return nil }
        return name[name.index(after: dot)...].lowercased()
    }
}
