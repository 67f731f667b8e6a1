import SystemPackage
import ThumbsCore
import ThumbsRendering
import ThumbsStore
import ThumbsSupport

/// Something the enumeration could not include, or could include only in part: listed in the
/// result, never fatal.
public struct LibraryIssue: Sendable, Hashable, CustomStringConvertible {
    public enum Reason: Sendable, Hashable {
        /// A symbolic link whose target is outside its library root: not followed.
        case symlinkOutsideRoot(target: String)
        /// A folder that could not be listed (errno text).
        case unreadableFolder(String)
        /// A file that could not be read (errno text).
        case unreadableFile(String)
        /// A file named like a photo or video whose content is neither: empty
        /// (``/ThumbsCore/ImagingError/emptyFile``) or something else (``/ThumbsCore/ImagingError/unsupportedFormat(_:)``).
        case notMedia(ImagingError)
        /// An image whose header could not be read: it is listed as an asset without properties,
        /// and its render will say more.
        case unreadableHeader(ImagingError)
        /// A file that kept changing while it was read (still being copied in, say): listed as an
        /// asset with the fingerprint the walk saw and no header properties. It is never reported
        /// removed; once it settles, a rescan reports it changed.
        case changing
        /// A file whose header a process died reading (``/ThumbsCore/ImagingError/crashed``,
        /// remembered in the failure memo): not read again until it changes.
        case crashedBefore
        /// A root that holds no file at all where the cache's folder listings held `listed`:
        /// taken for a disk that is not mounted, so nothing of it is reported gone.
        case emptyRoot(listed: Int)
    }

    /// The path, relative to its root when inside one.
    public var path: String
    public var reason: Reason
    /// The library root the path is relative to, when it is inside one.
    public var root: String?
    /// The file's path beneath ``root`` as bytes and the version the walk saw, when the issue is
    /// about a file the walk read.
    public var file: File?

    /// A file beneath a root, at one version.
    public struct File: Sendable, Hashable {
        public var path: FilePath
        public var fingerprint: FileFingerprint
    }

    public init(path: String, reason: Reason) {
        self.init(path: path, reason: reason, root: nil)
    }

    public init(path: String, reason: Reason, root: String?) {
        self.path = path
        self.reason = reason
        self.root = root
    }

    /// The file as an asset of no media type, for what records failures by file (the desktop's
    /// failure entries); nil when the issue names no version of a file beneath a root.
    public var unlistedAsset: Asset? {
        guard let root, let file else { return nil }
        return Asset(root: root, relativeFilePath: file.path, mediaType: .unsupported, fingerprint: file.fingerprint)
    }

    /// The path, with its root.
    public var fullPath: String { root.map { $0 + "/" + path } ?? path }

    /// The failure this issue amounts to for a file that should have had thumbnails: a file
    /// named like a photo that is empty or no media, one that cannot be read, a folder that
    /// cannot be listed, a file a decoder crashed on. Nil for what is no failure of a file (a
    /// link out of the library, not followed) or is listed as an asset all the same.
    public var failure: ImagingError? {
        switch reason {
        case .notMedia(let error): error
        case .unreadableFile(let why), .unreadableFolder(let why): .unreadable(why)
        case .crashedBefore: .crashed
        case .symlinkOutsideRoot, .unreadableHeader, .changing, .emptyRoot: nil
        }
    }

    public var description: String {
        switch reason {
        case .symlinkOutsideRoot(let target): "\(path): symbolic link out of the library (to \(target)), skipped"
        case .unreadableFolder(let why): "\(path)/: folder not readable (\(why)), skipped"
        case .unreadableFile(let why): "\(path): not readable (\(why)), skipped"
        case .notMedia(let error):
            "\(path): named like a photo but \(error.kind == .emptyFile ? "empty" : "neither a photo nor a video"), skipped"
        case .unreadableHeader(let error): "\(path): header not readable (\(error.kind.rawValue): \(error))"
        case .changing: "\(path): kept changing while it was read; listed without details"
        case .crashedBefore: "\(path): \(ImagingError.crashed)"
        case .emptyRoot(let listed):
            "\(path): holds no file where \(listed) were listed (a disk not mounted?); nothing of it forgotten"
        }
    }
}
