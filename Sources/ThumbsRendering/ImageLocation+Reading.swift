import Foundation
import Glibc
import ThumbsCore
import ThumbsSupport

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
