import CGLib
import Glibc

/// The file operations of the desktop's thumbnail cache, on paths the cache made itself.
enum CacheFile {
    /// Thumbnails are small; a larger file is no thumbnail and is not read whole.
    static let sizeLimit = 64 << 20

    /// The file's bytes; nil when it cannot be read or is larger than ``sizeLimit``.
    static func read(_ path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_size <= sizeLimit else {
            return nil
        }
        var bytes = [UInt8](repeating: 0, count: Int(status.st_size))
        var filled = 0
        while filled < bytes.count {
            let count = bytes.withUnsafeMutableBytes { buffer in
                Glibc.read(descriptor, buffer.baseAddress! + filled, buffer.count - filled)
            }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return nil }
            filled += count
        }
        return bytes
    }

    /// Writes `bytes` to a new file beside `path`, readable and writable by the user alone, then
    /// renames it over `path`: a reader sees the old file or the new one, never part of one.
    /// Missing folders on the way are made, for the user alone.
    static func replace(_ path: String, with bytes: [UInt8]) throws(DesktopCacheError) {
        let folder = String(path[..<path.lastIndex(of: "/")!])
        try makeFolders(folder)
        var template = Array((path + ".thumbs.XXXXXX").utf8CString)
        // GLib's, for O_CLOEXEC (Glibc's mkostemp is out of Swift's reach).
        let descriptor = template.withUnsafeMutableBufferPointer {
            g_mkstemp_full($0.baseAddress!, O_RDWR | O_CLOEXEC, 0o600)
        }
        guard descriptor >= 0 else { throw DesktopCacheError(path: path, operation: "create", code: errno) }
        let temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + written, $0.count - written) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else {
                let code = count < 0 ? errno : ENOSPC
                close(descriptor)
                unlink(temporary)
                throw DesktopCacheError(path: path, operation: "write", code: code)
            }
            written += count
        }
        guard close(descriptor) == 0 else {
            let code = errno
            unlink(temporary)
            throw DesktopCacheError(path: path, operation: "write", code: code)
        }
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw DesktopCacheError(path: path, operation: "rename", code: code)
        }
    }

    /// Whether `name` is a file ``replace(_:with:)`` left half-written (killed before its
    /// rename).
    static func isLeftOver(_ name: String) -> Bool {
        name.contains(".png.thumbs.")
    }

    static func remove(_ path: String) {
        unlink(path)
    }

    /// Makes `folder` and the missing folders above it (mode 0700, as the spec asks); folders
    /// that exist are left as they are.
    private static func makeFolders(_ folder: String) throws(DesktopCacheError) {
        if mkdir(folder, 0o700) == 0 || errno == EEXIST { return }
        guard errno == ENOENT, let parent = folder.lastIndex(of: "/"), parent > folder.startIndex
        else { throw DesktopCacheError(path: folder, operation: "mkdir", code: errno) }
        try makeFolders(String(folder[..<parent]))
        guard mkdir(folder, 0o700) == 0 || errno == EEXIST else {
            throw DesktopCacheError(path: folder, operation: "mkdir", code: errno)
        }
    }
}
