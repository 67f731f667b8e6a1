import Glibc
import ThumbsCore
import ThumbsSupport

extension ImageLocation {
    /// The file's ``/ThumbsCore/ContentIdentity``, read from the file opened beneath the root
    /// (as every render opens it): two reads of ``/ThumbsCore/ContentIdentity/sampledBytes`` at
    /// most. Fails as the open or read does, and with `changedWhileRendering` when the file is
    /// not at its ``expectedFingerprint``.
    public func contentIdentity() throws(ImagingError) -> ContentIdentity {
        let file = try OpenedFile.open(self)
        let fingerprint = try FileFingerprint(descriptor: file.descriptor)
        if let expectedFingerprint, expectedFingerprint != fingerprint { throw .changedWhileRendering }
        let sampled = UInt64(ContentIdentity.sampledBytes)
        var hash = FNV1a()
        hash.add(fingerprint.size)
        var buffer = [UInt8](repeating: 0, count: ContentIdentity.sampledBytes)
        // The whole file when both ends overlap, else its first and last sampled bytes.
        let ranges: [(offset: UInt64, count: UInt64)] =
            fingerprint.size <= 2 * sampled
            ? [(UInt64(0), fingerprint.size)] : [(UInt64(0), sampled), (fingerprint.size - sampled, sampled)]
        for range in ranges {
            var offset = range.offset
            let end = range.offset + range.count
            while offset < end {
                let wanted = Int(min(end - offset, sampled))
                let read = buffer.withUnsafeMutableBytes { bytes in
                    pread(file.descriptor, bytes.baseAddress, wanted, off_t(offset))
                }
                if read < 0, errno == EINTR { continue }
                guard read > 0 else {
                    throw read == 0 ? .changedWhileRendering : .unreadable(SystemError.describe(errno))
                }
                hash.add(buffer[0..<read])
                offset += UInt64(read)
            }
        }
        return ContentIdentity(fingerprint: fingerprint, signature: hash.value)
    }
}
