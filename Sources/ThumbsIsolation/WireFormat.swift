import ThumbsImaging

/// The bytes of one message between a renderer and its worker: fixed-width little-endian
/// integers, and byte strings after their 32-bit length.
struct WireWriter {
    private(set) var bytes: [UInt8] = [0, 0, 0, 0]

    init(capacity: Int = 256) {
        bytes.reserveCapacity(capacity)
    }

    mutating func u8(_ value: UInt8) { bytes.append(value) }
    mutating func u32(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
    mutating func u64(_ value: UInt64) { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
    mutating func i64(_ value: Int64) { u64(UInt64(bitPattern: value)) }
    mutating func f64(_ value: Double) { u64(value.bitPattern) }
    mutating func bool(_ value: Bool) { u8(value ? 1 : 0) }
    /// A size or count as 32 bits: every value the protocol carries fits (larger ones are clamped).
    mutating func count(_ value: Int) { u32(UInt32(clamping: value)) }

    mutating func blob(_ value: some Collection<UInt8>) {
        count(value.count)
        bytes += value
    }

    mutating func string(_ value: String) { blob(value.utf8) }

    /// The message with its length in front, ready for the socket.
    func framed() -> [UInt8] {
        var framed = bytes
        let length = UInt32(clamping: bytes.count - Self.headerSize)
        withUnsafeBytes(of: length.littleEndian) { framed.replaceSubrange(0..<Self.headerSize, with: $0) }
        return framed
    }

    /// The bytes of a message's length.
    static let headerSize = 4
}

/// Reads what ``WireWriter`` wrote, checking every length against what is left: a short or
/// malformed message from a worker is an error, never a crash.
struct WireReader {
    private let bytes: [UInt8]
    private var offset = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    var isAtEnd: Bool { offset == bytes.count }

    private mutating func take(_ count: Int) throws(WireError) -> ArraySlice<UInt8> {
        guard count >= 0, count <= bytes.count - offset else { throw .malformed("a message ends early") }
        defer { offset += count }
        return bytes[offset..<offset + count]
    }

    mutating func u8() throws(WireError) -> UInt8 { try take(1).first! }

    mutating func u32() throws(WireError) -> UInt32 {
        try take(4).reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    }

    mutating func u64() throws(WireError) -> UInt64 {
        try take(8).reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    }

    mutating func i64() throws(WireError) -> Int64 { Int64(bitPattern: try u64()) }
    mutating func f64() throws(WireError) -> Double { Double(bitPattern: try u64()) }
    mutating func bool() throws(WireError) -> Bool { try u8() != 0 }

    /// A count or size, at most `limit`.
    mutating func count(atMost limit: Int) throws(WireError) -> Int {
        let value = Int(try u32())
        guard value <= limit else { throw .malformed("\(value) is more than \(limit)") }
        return value
    }

    mutating func blob(atMost limit: Int = Int(UInt32.max)) throws(WireError) -> [UInt8] {
        Array(try take(try count(atMost: limit)))
    }

    mutating func string() throws(WireError) -> String {
        String(decoding: try blob(atMost: 1 << 16), as: UTF8.self)
    }

    /// One of `cases`, by its position in the list.
    mutating func oneOf<T>(_ cases: [T]) throws(WireError) -> T {
        let index = Int(try u8())
        guard index < cases.count else { throw .malformed("unknown value \(index)") }
        return cases[index]
    }
}

/// A message that breaks the protocol.
package enum WireError: Error, Equatable, CustomStringConvertible {
    case malformed(String)

    package var description: String {
        switch self {
        case .malformed(let why): "malformed message: \(why)"
        }
    }
}
