import Glibc
import ThumbsCore
import ThumbsSupport

extension ImageLocation {
    /// The file's ``/ThumbsCore/ContentIdentity``, read from the file opened beneath the root
    /// (as every render opens it): two reads of ``/ThumbsCore/ContentIdentity/sampledBytes`` at
    /// most. Fails as the open or read does, and with `changedWhileRendering` when the file is
    /// not at its `expectedFingerprint`.
    public func contentIdentity() throws(ImagingError) -> ContentIdentity {
        let file = try OpenedFile.open(self)
        let fingerprint = try FileFingerprint(descriptor: file.descriptor)
        if let expectedFingerprint, expectedFingerprint != fingerprint { throw .changedWhileRendering }
        let sampled = UInt64(ContentIdentity.sampledBytes)
        var hash = SampleHash(seed: fingerprint.size)
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
                buffer.withUnsafeBytes { hash.add(UnsafeRawBufferPointer(rebasing: $0[0..<read])) }
                offset += UInt64(read)
            }
        }
        return ContentIdentity(fingerprint: fingerprint, signature: hash.value)
    }
}

/// The signature's hash: xxHash64's round over 8-byte little-endian words (a last partial word
/// zero-padded, its length mixed in) and its final avalanche. A word at a time, it costs a few
/// microseconds for both samples, where a byte-wise hash would cost the walk thread tens.
private struct SampleHash {
    private static let prime1: UInt64 = 0x9E37_79B1_85EB_CA87
    private static let prime2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    private static let prime3: UInt64 = 0x1656_67B1_9E37_79F9
    private(set) var accumulator: UInt64

    init(seed: UInt64) {
        accumulator = seed &+ Self.prime3
    }

    mutating func add(_ bytes: UnsafeRawBufferPointer) {
        let words = bytes.count / 8
        for index in 0..<words {
            mix(UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self)))
        }
        let rest = bytes.count - words * 8
        guard rest > 0 else { return }
        var last: UInt64 = 0
        for index in 0..<rest { last |= UInt64(bytes[words * 8 + index]) << UInt64(8 * index) }
        mix(last ^ UInt64(rest) << 56)
    }

    private mutating func mix(_ word: UInt64) {
        let sum = accumulator &+ word &* Self.prime2
        accumulator = (sum << 31 | sum >> 33) &* Self.prime1
    }

    var value: UInt64 {
        var hash = accumulator
        hash ^= hash >> 33
        hash = hash &* Self.prime2
        hash ^= hash >> 29
        hash = hash &* Self.prime3
        return hash ^ hash >> 32
    }
}
