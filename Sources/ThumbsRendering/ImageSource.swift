import Glibc
import ThumbsCore
import ThumbsSupport

/// A file about to be imaged: opened beneath its root, its fingerprint and content type read
/// from that descriptor, checked before a decoder sees it. Empty files and files that are no
/// asset (neither an image, a camera RAW file nor a video) stop here.
package struct ImageSource: Sendable {
    package let file: OpenedFile
    package let fingerprint: FileFingerprint
    package let mediaType: MediaType
    /// The file's first ``/ThumbsCore/MediaType/sniffLength`` bytes (fewer in a shorter file),
    /// which told its media type: a format's handler (ThumbsImaging) tells its variants by them.
    package let leadingBytes: [UInt8]
    /// The file's path inside its root, for people: hints at formats whose first bytes are
    /// ambiguous (its name's extension) and at a screenshot (its folder).
    package let path: String

    package init(_ location: ImageLocation) throws(ImagingError) {
        try self.init(opened: location)
        try ensureAsset()
    }

    /// Opens and sniffs `location`, whatever its type (an empty file is `.unsupported`); fails
    /// only when it cannot be opened or is not the version `location` expects.
    package init(opened location: ImageLocation) throws(ImagingError) {
        try self.init(
            file: try OpenedFile.open(location), path: location.relativePath.displayString,
            expectedFingerprint: location.expectedFingerprint)
    }

    /// Sniffs a file opened elsewhere (a render worker's, handed over by its parent), whatever its
    /// type; `path` (inside its root) only hints at formats whose first bytes are ambiguous. Fails
    /// only when it cannot be read or is not the version expected.
    package init(
        file: OpenedFile, path: String, expectedFingerprint: FileFingerprint?
    ) throws(ImagingError) {
        self.file = file
        self.path = path
        let fileName = path.split(separator: "/").last.map(String.init) ?? path
        fingerprint = try FileFingerprint(descriptor: file.descriptor)
        if let expectedFingerprint, expectedFingerprint != fingerprint { throw .changedWhileRendering }
        leadingBytes = try fingerprint.size == 0 ? [] : Self.readPrefix(of: file, count: MediaType.sniffLength)
        mediaType = fingerprint.size == 0 ? .unsupported : MediaType(sniffing: leadingBytes, fileName: fileName)
    }

    /// Fails unless the file is a non-empty asset (an image, a camera RAW file or a video).
    package func ensureAsset() throws(ImagingError) {
        guard fingerprint.size > 0 else { throw .emptyFile }
        guard mediaType.isAsset else { throw .unsupportedFormat("not an image or a video") }
    }

    package var descriptor: Int32 { file.descriptor }

    /// Fails with ``/ThumbsCore/ImagingError/changedWhileRendering`` if the open file is no longer the
    /// version it was when opened (rewritten in place).
    package func ensureUnchanged() throws(ImagingError) {
        let now: FileFingerprint
        do { now = try FileFingerprint(descriptor: descriptor) } catch { throw .changedWhileRendering }
        guard now == fingerprint else { throw .changedWhileRendering }
    }

    /// Whether the file has gone unmodified long enough for a decode that ends early to be its
    /// damage (``/ThumbsCore/FileFingerprint/hasSettled``).
    package var hasSettled: Bool { fingerprint.hasSettled }

    package static func readPrefix(of file: OpenedFile, count: Int) throws(ImagingError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let got = bytes.withUnsafeMutableBytes { pread(file.descriptor, $0.baseAddress, count, 0) }
        guard got >= 0 else { throw .unreadable(SystemError.describe(errno)) }
        return Array(bytes.prefix(got))
    }

    package func readSuffix(count: Int) -> [UInt8] {
        let end = Int64(fingerprint.size)
        let start = max(0, end - Int64(count))
        var bytes = [UInt8](repeating: 0, count: Int(end - start))
        let got = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, off_t(start)) }
        return got < 0 ? [] : Array(bytes.prefix(got))
    }
}
