import Foundation
import ThumbsSupport

/// Reads what ``ByteWriter`` wrote, failing with a ``StoreError`` on a short or malformed record
/// (a record from a newer version, or damage), never crashing.
package struct ByteReader {
    private let bytes: UnsafeRawBufferPointer
    private(set) var offset = 0
    private let record: String

    package init(_ bytes: UnsafeRawBufferPointer, record: String) {
        self.bytes = bytes
        self.record = record
    }

    package var remaining: Int { bytes.count - offset }

    private mutating func take(_ count: Int) throws(StoreError) -> UnsafeRawBufferPointer {
        guard count <= remaining else {
            throw .store("malformed \(record) record (\(bytes.count) bytes)", "decode \(record)")
        }
        defer { offset += count }
        return UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + count])
    }

    package mutating func u8() throws(StoreError) -> UInt8 { try take(1)[0] }

    package mutating func u32() throws(StoreError) -> UInt32 {
        try take(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    }

    package mutating func u64() throws(StoreError) -> UInt64 {
        try take(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    }

    package mutating func i64() throws(StoreError) -> Int64 { Int64(bitPattern: try u64()) }
    package mutating func f64() throws(StoreError) -> Double { Double(bitPattern: try u64()) }

    package mutating func string() throws(StoreError) -> String {
        String(decoding: try lengthPrefixed(), as: UTF8.self)
    }

    /// The bytes of a field ``ByteWriter/lengthPrefixed(_:)`` wrote, lent.
    package mutating func lengthPrefixed() throws(StoreError) -> UnsafeRawBufferPointer {
        let count = Int(try u8()) << 8 | Int(try u8())
        return try take(count)
    }

    package mutating func optionalString() throws(StoreError) -> String? {
        try u8() == 0 ? nil : try string()
    }

    /// The next `count` bytes, lent (valid as long as the record is).
    package mutating func bytes(_ count: Int) throws(StoreError) -> UnsafeRawBufferPointer {
        try take(count)
    }

    /// The rest of the record, copied.
    package mutating func rest() -> [UInt8] {
        defer { offset = bytes.count }
        return Array(bytes[offset...])
    }
}
