import Glibc
import ThumbsSupport

/// What identifies one version of a file's content cheaply: its size and modification time.
///
/// Two fingerprints differ when a file was rewritten, so cache keys, the metadata cache and the
/// "changed while rendering" check all rest on it.
public struct FileFingerprint: Sendable, Hashable, Codable, CustomStringConvertible {
    public var size: UInt64
    /// Modification time in nanoseconds since 1970.
    public var modificationTimeNanoseconds: Int64

    public init(size: UInt64, modificationTimeNanoseconds: Int64) {
        self.size = size
        self.modificationTimeNanoseconds = modificationTimeNanoseconds
    }

    /// Reads the fingerprint of the file at `path` (following symlinks).
    public init(path: String) throws(ImagingError) {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw .unreadable(SystemError.describe(errno))
        }
        try self.init(info)
    }

    /// Reads the fingerprint of the open file `descriptor` refers to.
    public init(descriptor: Int32) throws(ImagingError) {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            throw .unreadable(SystemError.describe(errno))
        }
        try self.init(info)
    }

    private init(_ info: stat) throws(ImagingError) {
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw .unreadable("not a regular file")
        }
        self.init(size: UInt64(info.st_size), modificationTimeNanoseconds: Self.modificationTimeNanoseconds(of: info))
    }

    /// The modification time in `info`, in nanoseconds since 1970, as every fingerprint holds
    /// it. An `Int64` of nanoseconds ends in 2262, while file systems keep later times (ext4
    /// until 2446: `touch -d 2300-01-01` sets one), so the product wraps instead of trapping.
    /// It wraps every 584 years: times closer than that still differ, which is what a
    /// fingerprint is for.
    package static func modificationTimeNanoseconds(of info: stat) -> Int64 {
        Int64(info.st_mtim.tv_sec) &* 1_000_000_000 &+ Int64(info.st_mtim.tv_nsec)
    }

    public var description: String { "\(size)B@\(modificationTimeNanoseconds)" }
}
