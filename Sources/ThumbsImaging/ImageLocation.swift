import Foundation
import Glibc
import SystemPackage
import ThumbsSupport

/// Where a file to image is: a folder it must not leave (a library root) and the path beneath it.
///
/// Files are opened through their location only (`OpenedFile`): resolved beneath the root by
/// the kernel, so that a photo swapped for a link to a file outside the library after the walk
/// cannot bring that file's pixels into the cache. Paths are bytes (`FilePath`), so a name that
/// is not valid UTF-8 is opened as it is.
/// ```swift
/// let location = ImageLocation(root: "/photos", relativePath: "2024/IMG_0001.JPG")
/// let thumbnail = try await renderer.render(location, specs: [spec], ticket: PriorityTicket(.interactive))
/// ```
public struct ImageLocation: Sendable, Hashable, CustomStringConvertible {
    /// The folder the file must stay beneath.
    public var root: FilePath
    /// The path inside ``root``: relative, without "." or ".." components.
    public var relativePath: FilePath
    /// The size and modification time the file is expected to have (from the walk): an opened
    /// file that differs is ``ImagingError/changedWhileRendering``, so that no thumbnail is
    /// kept under a key that names other content. Nil accepts any version.
    public var expectedFingerprint: FileFingerprint?

    public init(root: FilePath, relativePath: FilePath, expectedFingerprint: FileFingerprint? = nil) {
        self.root = root
        self.relativePath = relativePath
        self.expectedFingerprint = expectedFingerprint
    }

    /// A file named on its own (a command-line argument): beneath its own folder. The name is
    /// resolved first, so a link named on purpose leads to its target.
    public init(path: String) {
        let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().standardizedFileURL
        self.init(
            root: FilePath(resolved.deletingLastPathComponent().path),
            relativePath: FilePath(resolved.lastPathComponent))
    }

    /// The whole path, for people (bytes that are not UTF-8 shown as `\xHH`).
    public var description: String {
        root.appending(relativePath.components).displayString
    }

    /// The file name, for people.
    package var displayName: String { relativePath.lastComponent.map { FilePath(root: nil, [$0]).displayString } ?? "" }
}

extension ImageLocation {
    /// The file's bytes, mapped into memory, and its fingerprint, read from the file opened
    /// beneath the root (as every render opens it).
    public func mappedContents() throws(ImagingError) -> (bytes: Data, fingerprint: FileFingerprint) {
        let source = try ImageSource(opened: self)
        let fingerprint = source.fingerprint
        guard fingerprint.size > 0 else { return (Data(), fingerprint) }
        let count = Int(fingerprint.size)
        guard let mapped = mmap(nil, count, PROT_READ, MAP_PRIVATE, source.descriptor, 0), mapped != MAP_FAILED else {
            throw .unreadable(SystemError.describe(errno))
        }
        let bytes = Data(
            bytesNoCopy: mapped, count: count, deallocator: .custom { pointer, count in munmap(pointer, count) })
        return (bytes, fingerprint)
    }
}

extension ImageLocation {
    /// Files larger than this get no read-ahead of the whole: a video's decoder reads only the
    /// parts it needs, and reading all of a film ahead would cost more than it saves.
    package static let largestReadAhead = 64 << 20

    /// Asks the kernel to start reading the file's first `bytes` (the whole file when it is at
    /// most ``largestReadAhead`` and `bytes` is nil) into the page cache, and returns without
    /// waiting for the disk: the render or inspection queued behind others then finds the file
    /// in memory instead of holding its thread on the read. Opened beneath the root, as every
    /// read is. Returns false, having asked nothing, for a file that cannot be opened there or
    /// is not a regular file: the read that follows reports why.
    @discardableResult
    package func adviseReading(first bytes: Int? = nil) -> Bool {
        guard let file = try? OpenedFile.open(self),
            let size = try? Int(FileFingerprint(descriptor: file.descriptor).size),
            bytes != nil || size <= Self.largestReadAhead
        else { return false }
        return posix_fadvise(file.descriptor, 0, off_t(min(bytes ?? size, size)), POSIX_FADV_WILLNEED) == 0
    }
}
