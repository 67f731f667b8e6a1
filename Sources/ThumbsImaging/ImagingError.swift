import ThumbsSupport

/// Why a file could not be probed or rendered.
///
/// Each case carries what a person needs to act on it; ``kind`` is the stable name used in
/// reports and in the failure memo.
/// ```swift
/// do { _ = try await renderer.render(path, spec) }
/// catch let error as ImagingError { print("\(error.kind): \(error)") }
/// ```
public enum ImagingError: Error, Sendable, Hashable {
    /// The content is not an image format Thumbs renders (the detected type is named).
    case unsupportedFormat(String)
    /// The file has no bytes at all.
    case emptyFile
    /// The file ends before its image data does; libvips' message is kept.
    case truncated(String)
    /// The data is damaged or not valid for its format; libvips' message is kept.
    case corrupt(String)
    /// The header announces more pixels than the configured limit (a decompression bomb is
    /// refused before any pixel is decoded).
    case tooManyPixels(width: Int, height: Int, limit: Int)
    /// Decoding the file would take more memory than the whole decode budget
    /// (``ImagingConfiguration/decodeMemoryBudget``), as estimated from its header.
    case tooMuchMemory(needed: Int, budget: Int)
    /// The file could not be opened or read: missing, vanished, permission denied (errno text).
    case unreadable(String)
    /// The file's size or modification time changed while it was being rendered.
    case changedWhileRendering
    /// The output could not be encoded; libvips' message is kept.
    case encodingFailed(String)
    /// libvips could not be started.
    case libraryUnavailable(String)
    /// A container with no video stream to take a poster from (an audio-only file).
    case noVideoStream
    /// The video's codec (named) has no decoder in this FFmpeg.
    case decoderMissing(String)
    /// Decoding took longer than ``ImagingConfiguration/decodeTimeLimit`` and was stopped: a stuck
    /// decoder costs one file, not the whole run.
    case timedOut(Duration)
    /// The process died while a decoder had the file (a fault or a trap in a decoding library):
    /// noted by a ``DecodeJournal`` and recorded by the next process that opened the cache.
    case crashed

    /// Stable, machine-readable names for reports and the failure memo.
    public enum Kind: String, Sendable, Hashable, CaseIterable, Codable {
        case unsupportedFormat = "unsupported-format"
        case emptyFile = "empty-file"
        case truncated
        case corrupt
        case tooManyPixels = "too-many-pixels"
        case tooMuchMemory = "too-much-memory"
        case unreadable
        case changedWhileRendering = "changed-while-rendering"
        case encodingFailed = "encoding-failed"
        case libraryUnavailable = "library-unavailable"
        case noVideoStream = "no-video-stream"
        case decoderMissing = "decoder-missing"
        case timedOut = "timed-out"
        case crashed

        /// Whether the failure is about the machine or the moment rather than the file's content
        /// (unreadable or vanished, being written, libvips missing): such failures are not worth
        /// remembering, and the file is tried again next time.
        public var isTransient: Bool {
            switch self {
            case .unreadable, .changedWhileRendering, .libraryUnavailable: true
            default: false
            }
        }
    }

    /// The stable name of this error's kind.
    public var kind: Kind {
        switch self {
        case .unsupportedFormat: .unsupportedFormat
        case .emptyFile: .emptyFile
        case .truncated: .truncated
        case .corrupt: .corrupt
        case .tooManyPixels: .tooManyPixels
        case .tooMuchMemory: .tooMuchMemory
        case .unreadable: .unreadable
        case .changedWhileRendering: .changedWhileRendering
        case .encodingFailed: .encodingFailed
        case .libraryUnavailable: .libraryUnavailable
        case .noVideoStream: .noVideoStream
        case .decoderMissing: .decoderMissing
        case .timedOut: .timedOut
        case .crashed: .crashed
        }
    }
}

extension ImagingError: CustomStringConvertible {
    /// One line, fit for a report or a terminal.
    public var description: String {
        switch self {
        case .unsupportedFormat(let detected): "unsupported format (content is \(detected))"
        case .emptyFile: "empty file (0 bytes)"
        case .truncated(let message): "truncated file" + Self.detail(message)
        case .corrupt(let message): "corrupt image data" + Self.detail(message)
        case .tooManyPixels(let width, let height, let limit):
            "too many pixels: \(width)x\(height) is over the limit of \(limit) pixels"
        case .tooMuchMemory(let needed, let budget):
            "too much memory to decode: \(Self.megabytes(needed)) needed, the decode budget is \(Self.megabytes(budget))"
        case .unreadable(let reason): "unreadable: \(reason)"
        case .changedWhileRendering: "file changed while it was being rendered; not cached"
        case .encodingFailed(let message): "could not encode the thumbnail" + Self.detail(message)
        case .libraryUnavailable(let message): "libvips could not start" + Self.detail(message)
        case .noVideoStream: "no video stream (audio only?)"
        case .decoderMissing(let codec): "no decoder for the video codec \(codec)"
        case .timedOut(let limit): "decoding took longer than \(Int(limit.seconds.rounded(.up))) s"
        case .crashed: "the process died while decoding this file; skipped until it changes"
        }
    }

    private static func megabytes(_ bytes: Int) -> String {
        "\((bytes + (1 << 20) - 1) >> 20) MiB"
    }

    private static func detail(_ message: String) -> String {
        message.isEmpty ? "" : ": \(message)"
    }
}
