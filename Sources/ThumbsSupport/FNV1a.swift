/// 64-bit FNV-1a: a hash that is the same in every process and on every machine (Swift's
/// `Hasher` is seeded per process), for the ids and tags that name things across runs: asset
/// ids, file versions, ETags.
package struct FNV1a: Sendable {
    package private(set) var value: UInt64 = 0xCBF2_9CE4_8422_2325

    package init() {}

    package mutating func add(_ bytes: some Sequence<UInt8>) {
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
        let digits = String(self, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
