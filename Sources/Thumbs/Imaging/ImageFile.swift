import CVipsShim
import Foundation
import Glibc

/// A file opened for imaging: its fingerprint, its content type and its header, checked against
/// the pixel limit. Nothing is decoded yet.
struct ImageFile {
    let path: String
    let fingerprint: FileFingerprint
    let mediaType: MediaType
    /// The header as libvips reads it (pixels are decoded lazily, on first use).
    let header: VipsImageHandle
    /// The size as displayed, after the orientation libvips applies.
    let uprightSize: PixelSize

    /// Opens `path`, refusing empty files, unsupported content and images over `pixelLimit`.
    init(path: String, pixelLimit: Int) throws(ImagingError) {
        try VipsRuntime.ensureStarted()
        self.path = path
        fingerprint = try FileFingerprint(path: path)
        guard fingerprint.size > 0 else { throw .emptyFile }
        mediaType = MediaType(sniffing: try Self.readPrefix(of: path, count: MediaType.sniffLength))
        guard mediaType.isImage else {
            throw .unsupportedFormat(mediaType == .unsupported ? "not an image" : "\(mediaType.rawValue) video")
        }
        guard let opened = path.withCString({ thumbs_vips_open_file($0) }) else {
            throw Self.decodeError(VipsError.takeMessage(), path: path, mediaType: mediaType)
        }
        header = VipsImageHandle(opened)
        // For multi-page images the header height can be the whole strip; one page is decoded.
        let pageHeight = Int(vips_image_get_page_height(header.pointer))
        let stored = PixelSize(width: header.width, height: pageHeight > 0 ? pageHeight : header.height)
        guard stored.pixelCount <= pixelLimit else {
            throw .tooManyPixels(width: stored.width, height: stored.height, limit: pixelLimit)
        }
        uprightSize = header.orientation >= 5 ? stored.transposed : stored
    }

    /// Fails with ``ImagingError/changedWhileRendering`` if the file is not the one opened.
    func ensureUnchanged() throws(ImagingError) {
        let now: FileFingerprint
        do { now = try FileFingerprint(path: path) } catch { throw .changedWhileRendering }
        guard now == fingerprint else { throw .changedWhileRendering }
    }

    static func readPrefix(of path: String, count: Int) throws(ImagingError) -> [UInt8] {
        try read(path) { descriptor in
            var bytes = [UInt8](repeating: 0, count: count)
            let got = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, count) }
            return got < 0 ? nil : Array(bytes.prefix(got))
        }
    }

    static func readSuffix(of path: String, count: Int) -> [UInt8] {
        (try? read(path) { descriptor in
            let end = lseek(descriptor, 0, SEEK_END)
            guard end >= 0 else { return nil }
            let start = max(0, end - off_t(count))
            var bytes = [UInt8](repeating: 0, count: Int(end - start))
            let got = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, start) }
            return got < 0 ? nil : Array(bytes.prefix(got))
        }) ?? []
    }

    private static func read(
        _ path: String, _ body: (Int32) -> [UInt8]?
    ) throws(ImagingError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .unreadable(SystemError.describe(errno)) }
        defer { close(descriptor) }
        guard let bytes = body(descriptor) else { throw .unreadable(SystemError.describe(errno)) }
        return bytes
    }
}

extension ImageFile {
    private static let truncationPhrases = [
        "premature end of input file", "not enough data", "bad seek", "unexpected end of file",
        "truncated", "end of stream",
    ]
    private static let unsupportedPhrases = ["not supported", "unsupported"]
    private static let corruptionPhrases = ["corrupt", "bogus", "crc error", "invalid", "bad huffman"]

    /// Turns a libvips failure while decoding this file into a typed error.
    func decodeError(_ message: String) -> ImagingError {
        Self.decodeError(message, path: path, mediaType: mediaType)
    }

    /// libvips' words decide when they are clear (run alone, see ``VipsCallGate``, they describe
    /// this file); otherwise a file whose end marker is missing (a JPEG without EOI, a PNG
    /// without IEND) is truncated, and anything else is corrupt.
    static func decodeError(_ text: String, path: String, mediaType: MediaType) -> ImagingError {
        // Reports name the file already; libvips repeats it at the start of some lines.
        let message = text.replacingOccurrences(of: path + ": ", with: "")
        let lowered = message.lowercased()
        if truncationPhrases.contains(where: lowered.contains) { return .truncated(message) }
        if unsupportedPhrases.contains(where: lowered.contains) {
            return .unsupportedFormat("a \(mediaType.rawValue) variant libvips cannot read: \(message)")
        }
        if corruptionPhrases.contains(where: lowered.contains) { return .corrupt(message) }
        return isMissingEndMarker(path: path, mediaType: mediaType) ? .truncated(message) : .corrupt(message)
    }

    private static func isMissingEndMarker(path: String, mediaType: MediaType) -> Bool {
        // Trailing zero padding after the end marker is common and harmless.
        var tail = readSuffix(of: path, count: 64)
        while tail.last == 0 { tail.removeLast() }
        guard !tail.isEmpty else { return false }
        switch mediaType {
        case .jpeg: return !tail.suffix(2).elementsEqual([0xFF, 0xD9])
        case .png: return !String(decoding: tail.suffix(12), as: UTF8.self).contains("IEND")
        default: return false
        }
    }
}
