import Glibc
import Hummingbird
import SystemPackage
import ThumbsCore
import ThumbsLibrary
import ThumbsRendering
import ThumbsSupport

/// A Live Photo's or a motion photo's movie, opened for one answer: the file (opened beneath
/// its root, as a render opens it) and the byte range of it that is the movie.
struct MotionMovieFile: Sendable {
    let file: OpenedFile
    /// Where the movie starts in the file, and its length in bytes.
    let start: UInt64
    let length: UInt64
    let contentType: String
    /// Names the movie's current content, for its ETag.
    let version: String

    /// Opens `asset`'s movie; fails when it has none, or when the file is no longer what the
    /// listing said (a still rewritten since, whose movie's offsets may have moved).
    static func open(_ asset: Asset) throws(APIError) -> MotionMovieFile {
        guard let motion = asset.motion else {
            throw .notFound("no-motion", "\(asset.relativePath) is not a Live Photo or a motion photo")
        }
        switch motion {
        case .paired(let movie):
            let location = ImageLocation(root: FilePath(asset.root), relativePath: movie.relativeFilePath)
            let (file, fingerprint) = try opened(location, expecting: movie.fingerprint, of: asset)
            return MotionMovieFile(
                file: file, start: 0, length: fingerprint.size,
                contentType: motion.contentType, version: fingerprint.version)
        case .embedded(let movie):
            let (file, fingerprint) = try opened(asset.location, expecting: asset.fingerprint, of: asset)
            // A metadata record may be damaged: the range is the file's, and an MP4's, or nothing.
            guard movie.length >= 8, movie.offset <= fingerprint.size, movie.length <= fingerprint.size - movie.offset,
                startsWithFileTypeBox(file, at: movie.offset)
            else { throw .notFound("no-motion", "\(asset.relativePath) holds no movie where its header said") }
            return MotionMovieFile(
                file: file, start: movie.offset, length: movie.length, contentType: motion.contentType,
                version: fingerprint.version)
        }
    }

    private static func opened(
        _ location: ImageLocation, expecting expected: FileFingerprint, of asset: Asset
    ) throws(APIError) -> (OpenedFile, FileFingerprint) {
        let file: OpenedFile, fingerprint: FileFingerprint
        do throws(ImagingError) {
            file = try OpenedFile.open(location)
            fingerprint = try FileFingerprint(descriptor: file.descriptor)
        } catch {
            throw .notFound("unreadable", "\(asset.relativePath): \(error)")
        }
        guard fingerprint == expected else {
            throw APIError(
                status: .conflict, kind: "changed", message: "\(asset.relativePath) changed since it was listed")
        }
        return (file, fingerprint)
    }

    private static func startsWithFileTypeBox(_ file: OpenedFile, at offset: UInt64) -> Bool {
        var header = [UInt8](repeating: 0, count: 8)
        let count = header.withUnsafeMutableBytes { pread(file.descriptor, $0.baseAddress, 8, off_t(offset)) }
        return count == 8 && header[4...] == Array("ftyp".utf8)[...]
    }

    /// Up to `count` bytes of the movie from `position` (relative to its start); fewer only at
    /// the file's end.
    func read(at position: UInt64, count: Int) throws(APIError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let read = bytes.withUnsafeMutableBytes {
                pread(
                    file.descriptor, $0.baseAddress! + filled, count - filled,
                    off_t(start + position + UInt64(filled)))
            }
            if read < 0, errno == EINTR { continue }
            guard read > 0 else {
                if read == 0 { break }
                throw APIError(
                    status: .internalServerError, kind: "unreadable", message: SystemError.describe(errno))
            }
            filled += read
        }
        return Array(bytes.prefix(filled))
    }
}
