import CFileAccess
import Glibc
import SystemPackage
import ThumbsCore
import ThumbsSupport

/// A file opened for reading beneath its location's root, without leaving it: the descriptor
/// every read of one render goes through (sniffing, the fingerprint, libvips' loads).
///
/// Opened with `openat2(RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS)` from the root's descriptor:
/// the kernel resolves the whole path at once and refuses any step out of the root (a "..", an
/// absolute link, a relative link climbing out), so there is no window between a check and the
/// open. Links that stay inside the root are followed, as the walk follows them. Where the
/// kernel lacks openat2 (before Linux 5.6, or a sandbox that filters it), every component is
/// opened from the previous one's descriptor with `O_NOFOLLOW`: no link is followed at all.
///
/// Non-blocking, so that a FIFO put in a photo's place cannot stall the render: it is not a
/// regular file, which the fingerprint refuses before anything is read.
///
/// Closed when the last reference goes; a libvips image made from it holds a descriptor of its
/// own, so the file may close while images are still being read.
package final class OpenedFile: Sendable {
    package let descriptor: Int32

    /// Takes `descriptor` over: it is closed with this file.
    package init(adopting descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// Opens `location` for reading; fails with ``/ThumbsCore/ImagingError/unreadable(_:)`` when it cannot
    /// be opened or would leave its root.
    package static func open(_ location: ImageLocation) throws(ImagingError) -> OpenedFile {
        guard !location.relativePath.isAbsolute, !location.relativePath.isEmpty,
            location.relativePath.components.allSatisfy({ $0.kind == .regular })
        else { throw .unreadable("the path leaves the library's root") }
        let root = location.root.withPlatformString { Glibc.open($0, thumbs_o_path | O_DIRECTORY | O_CLOEXEC) }
        guard root >= 0 else { throw .unreadable("the library's root: " + SystemError.describe(errno)) }
        defer { close(root) }
        var descriptor = openBeneath(root, location.relativePath)
        if descriptor < 0, errno == ENOSYS || errno == EPERM {
            descriptor = openByComponents(root, location.relativePath)
        }
        guard descriptor >= 0 else {
            throw .unreadable(
                errno == EXDEV || errno == ELOOP
                    ? "a link leads out of the library's root; not followed" : SystemError.describe(errno))
        }
        return OpenedFile(adopting: descriptor)
    }

    /// openat2 beneath `root`; -1 with errno set on failure (ENOSYS where the kernel lacks it).
    static func openBeneath(_ root: Int32, _ path: FilePath) -> Int32 {
        path.withPlatformString {
            thumbs_openat2(
                root, $0, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK,
                thumbs_resolve_beneath | thumbs_resolve_no_magiclinks)
        }
    }

    /// Each component from the previous one's descriptor, with O_NOFOLLOW; -1 with errno set.
    static func openByComponents(_ root: Int32, _ path: FilePath) -> Int32 {
        var folder = dup(root)
        let components = Array(path.components)
        for (index, component) in components.enumerated() {
            let isLast = index == components.count - 1
            let flags =
                O_NOFOLLOW | O_CLOEXEC | (isLast ? O_RDONLY | O_NOCTTY | O_NONBLOCK : thumbs_o_path | O_DIRECTORY)
            let next = FilePath(root: nil, [component]).withPlatformString { openat(folder, $0, flags) }
            let failure = errno
            close(folder)
            guard next >= 0 else {
                errno = failure
                return -1
            }
            folder = next
        }
        return folder
    }
}
