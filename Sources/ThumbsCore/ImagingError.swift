import ThumbsSupport

/// Why a file could not be probed or rendered.
///
/// Each case carries what a person needs to act on it; ``kind`` is the stable name used in
/// reports and in the failure memo.
/// ```swift
/// do { _ = try await renderer.render(path, spec) }
/// catch let error as ImagingError { print("\(error.kind.rawValue): \(error)") }
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
    /// (`ImagingConfiguration.decodeMemoryBudget`), as estimated from its header; or, with
    /// `needed` `Int.max`, a confined decode (a render worker's, or a one-file command's in its
    /// own process) ran out of the memory its process may use.
    case tooMuchMemory(needed: Int, budget: Int)
    /// The file could not be opened or read: missing, vanished, permission denied (errno text).
    case unreadable(String)
    /// The file's size or modification time changed while it was being rendered.
    case changedWhileRendering
    /// The output could not be encoded; libvips' message is kept.
    case encodingFailed(String)
    /// The decoders could not be started: libvips, or a render worker.
    case libraryUnavailable(String)
    /// A container with no video stream to take a poster from (an audio-only file).
    case noVideoStream
    /// The video's codec (named) has no decoder in this FFmpeg.
    case decoderMissing(String)
    /// Decoding took longer than `ImagingConfiguration.decodeTimeLimit` and was stopped: a stuck
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
    /// What went wrong, in one line fit for a report or a terminal: the reason that follows the
    /// kind, which it does not repeat, so that a failure reads "KIND: reason" once
    /// (`truncated: premature end of input file`).
    public var description: String {
        switch self {
        case .unsupportedFormat(let detected): "content is \(detected)"
        case .emptyFile: "0 bytes"
        case .truncated(let message): Self.reason(message, or: "the file ends before its image data")
        case .corrupt(let message): Self.reason(message, or: "the data is not valid for its format")
        case .tooManyPixels(let width, let height, let limit): "\(width)x\(height) is over the limit of \(limit) pixels"
        case .tooMuchMemory(let needed, let budget) where needed == .max:
            "the decode ran out of the memory its confined process may use (a decode budget of \(Self.megabytes(budget)))"
        case .tooMuchMemory(let needed, let budget):
            "\(Self.megabytes(needed)) needed to decode, the decode budget is \(Self.megabytes(budget))"
        case .unreadable(let reason): Self.reason(reason, or: "the file could not be read")
        case .changedWhileRendering: "the file's size or modification time changed during the render; not cached"
        case .encodingFailed(let message): Self.reason(message, or: "the encoder gave no thumbnail")
        case .libraryUnavailable(let message):
            "the decoders could not start" + (message.isEmpty ? "" : ": \(message)")
        case .noVideoStream: "nothing in the container to take a poster frame from (audio only?)"
        case .decoderMissing(let codec): "this FFmpeg cannot decode the video codec \(codec)"
        case .timedOut(let limit): "decoding took longer than \(Int(limit.seconds.rounded(.up))) s"
        case .crashed: "the process died while decoding this file; skipped until it changes"
        }
    }

    /// Rounded up, and without overflow: a render worker's numbers come from another process.
    private static func megabytes(_ bytes: Int) -> String {
        "\(bytes >> 20 + (bytes & ((1 << 20) - 1) == 0 ? 0 : 1)) MiB"
    }

    private static func reason(_ message: String, or fallback: String) -> String {
        message.isEmpty ? fallback : message
    }
}
