import Foundation
import ThumbsSupport

/// Writes the store's binary records: fixed-width big-endian integers (so keys sort in numeric
/// order) and length-prefixed strings.
package struct ByteWriter {
    package private(set) var bytes: [UInt8] = []

    package init(capacity: Int = 64) {
        bytes.reserveCapacity(capacity)
    }

    package mutating func u8(_ value: UInt8) { bytes.append(value) }
    package mutating func u32(_ value: UInt32) { withUnsafeBytes(of: value.bigEndian) { bytes += $0 } }
    package mutating func u64(_ value: UInt64) { withUnsafeBytes(of: value.bigEndian) { bytes += $0 } }
    package mutating func i64(_ value: Int64) { u64(UInt64(bitPattern: value)) }
    package mutating func f64(_ value: Double) { u64(value.bitPattern) }
    package mutating func raw(_ value: [UInt8]) { bytes += value }

    /// A string of up to 65,535 UTF-8 bytes; a longer one is cut where a scalar starts, as a cut
    /// inside one would write bytes that are not UTF-8, which read back as another string.
    package mutating func string(_ value: String) {
        let all = value.utf8
        var end = all.index(all.startIndex, offsetBy: Int(UInt16.max), limitedBy: all.endIndex) ?? all.endIndex
        while end != all.endIndex, end != all.startIndex, UTF8.isContinuation(all[end]) {
            all.formIndex(before: &end)
        }
        lengthPrefixed(all[..<end])
    }

    /// Up to 65,535 bytes after their count (2 bytes); the caller cuts longer ones.
    package mutating func lengthPrefixed(_ value: some Collection<UInt8>) {
        precondition(value.count <= Int(UInt16.max), "a length-prefixed field holds at most 65,535 bytes")
        u8(UInt8(value.count >> 8))
        u8(UInt8(value.count & 0xFF))
        bytes += value
    }

    package mutating func optionalString(_ value: String?) {
        u8(value == nil ? 0 : 1)
        if let value { string(value) }
    }
}
