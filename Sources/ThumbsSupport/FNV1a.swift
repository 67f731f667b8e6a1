/// 64-bit FNV-1a: a hash that is the same in every process and on every machine (Swift's
/// `Hasher` is seeded per process), for the ids and tags that name things across runs: asset
/// ids, file versions, ETags.
package struct FNV1a: Sendable {
    package private(set) var value: UInt64 = 0xCBF2_9CE4_8422_2325

    package init() {}

    package mutating func add(_ bytes: some Sequence<UInt8>) {
        // Contiguous bytes (arrays, native strings' UTF-8) in one concrete loop: this is hashed
        // for every file of every walk, where a generic iterator costs several times as much.
        var hash = value
        let contiguous: Void? = bytes.withContiguousStorageIfAvailable { buffer in
            for byte in buffer { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        }
        guard contiguous == nil else {
            value = hash
            return
        }
        for byte in bytes { add(byte) }
    }

    package mutating func add(_ byte: UInt8) {
        value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
    }

    /// The eight bytes of `number`, least significant first.
    package mutating func add(_ number: UInt64) {
        for shift in stride(from: 0, to: 64, by: 8) { add(UInt8(truncatingIfNeeded: number >> UInt64(shift))) }
    }

    /// The hash as 16 lower-case hex digits.
    package var hex: String { value.hexDigits }
}

extension UInt64 {
    /// 16 lower-case hex digits, zero-padded.
    package var hexDigits: String {
        // Written into the string's own storage: an asset id is made for every file of every walk.
        String(unsafeUninitializedCapacity: 16) { buffer in
            for index in 0..<16 {
                let nibble = UInt8(truncatingIfNeeded: self >> UInt64(60 - 4 * index)) & 0xF
                buffer[index] = nibble < 10 ? 0x30 + nibble : 0x57 + nibble  // "0"… "9", "a"… "f"
            }
            return 16
        }
    }
}
