/// Bytes from a file read as integers of either byte order, every read checked against the end:
/// a read that does not fit gives nil, never a trap, so a count or an offset taken from the
/// file can be followed without trusting it.
package struct BoundedBytes: Sendable {
    package let bytes: [UInt8]
    package let bigEndian: Bool

    package init(_ bytes: [UInt8], bigEndian: Bool = true) {
        self.bytes = bytes
        self.bigEndian = bigEndian
    }

    /// The indices of `count` bytes at `offset`, when they lie within the bytes.
    package func range(at offset: Int, count: Int) -> Range<Int>? {
        guard offset >= 0, count >= 0, count <= bytes.count, offset <= bytes.count - count else { return nil }
        return offset..<(offset + count)
    }

    package func slice(at offset: Int, count: Int) -> ArraySlice<UInt8>? {
        range(at: offset, count: count).map { bytes[$0] }
    }

    package func uint16(at offset: Int) -> UInt16? {
        integer(at: offset, count: 2).map { UInt16(truncatingIfNeeded: $0) }
    }

    package func uint32(at offset: Int) -> UInt32? {
        integer(at: offset, count: 4).map { UInt32(truncatingIfNeeded: $0) }
    }

    package func uint64(at offset: Int) -> UInt64? {
        integer(at: offset, count: 8)
    }

    /// Whether `signature` is at `offset`.
    package func matches(_ signature: some Collection<UInt8>, at offset: Int) -> Bool {
        slice(at: offset, count: signature.count).map { $0.elementsEqual(signature) } ?? false
    }

    private func integer(at offset: Int, count: Int) -> UInt64? {
        guard let range = range(at: offset, count: count) else { return nil }
        let ordered = bigEndian ? Array(bytes[range]) : bytes[range].reversed()
        return ordered.reduce(0) { $0 << 8 | UInt64($1) }
    }
}
