import Foundation
import ThumbsSupport

/// A number of bytes written the way people write them: "2 GiB", "500 MB", "64k", "1048576".
///
/// Binary units (KiB, MiB, GiB, TiB, and the bare K, M, G, T) count in 1024s; decimal ones
/// (kB, MB, GB, TB) in 1000s. Sizes above ``maximum`` (8 EiB, what an `Int64` holds) are not
/// sizes: parsing them fails rather than wrapping around.
public struct ByteCount: Sendable, Hashable, Comparable, CustomStringConvertible, Codable {
    public var bytes: Int64

    public init(_ bytes: Int64) {
        self.bytes = bytes
    }

    /// The largest size: 8 EiB less one byte.
    public static let maximum = ByteCount(Int64.max)

    public init?(parsing text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let digits = trimmed.prefix { $0.isNumber || $0 == "." }
        guard let number = Double(digits), number >= 0 else { return nil }
        let unit = trimmed.dropFirst(digits.count).trimmingCharacters(in: .whitespaces).lowercased()
        let kibi = 1024.0
        let multipliers: [String: Double] = [
            "": 1, "b": 1,
            "k": kibi, "kib": kibi, "kb": 1e3,
            "m": kibi * kibi, "mib": kibi * kibi, "mb": 1e6,
            "g": kibi * kibi * kibi, "gib": kibi * kibi * kibi, "gb": 1e9,
            "t": kibi * kibi * kibi * kibi, "tib": kibi * kibi * kibi * kibi, "tb": 1e12,
        ]
        guard let multiplier = multipliers[unit] else { return nil }
        // Int64.max as a Double rounds up to 2^63, which no longer fits: compare below it.
        let bytes = (number * multiplier).rounded()
        guard bytes.isFinite, bytes < 0x1p63 else { return nil }
        self.init(Int64(bytes))
    }

    public static func < (lhs: ByteCount, rhs: ByteCount) -> Bool { lhs.bytes < rhs.bytes }

    /// "1.5 GiB", "20.0 KiB", "512 B".
    public var description: String {
        let units = ["B", "KiB", "MiB", "GiB", "TiB"]
        var value = Double(bytes)
        var index = 0
        while value >= 1024 && index < units.count - 1 {
            value /= 1024
            index += 1
        }
        return index == 0 ? "\(bytes) B" : String(format: "%.1f %@", value, units[index])
    }

    /// Decoded from its written form ("2 GiB", "500 MB") or a plain number of bytes.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let bytes = try? container.decode(Int64.self), bytes >= 0 {
            self.init(bytes)
            return
        }
        let text = try container.decode(String.self)
        guard let parsed = ByteCount(parsing: text) else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "expected a size such as \"2 GiB\" or \"500 MB\", at most 8 EiB, found \"\(text)\"")
        }
        self = parsed
    }

    /// Encoded as text that reads back exactly: the largest binary unit that divides it ("2 GiB"),
    /// else bytes.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        let units = ["TiB", "GiB", "MiB", "KiB"]
        for (index, unit) in units.enumerated() {
            let size = Int64(1) << (10 * Int64(units.count - index))
            if bytes != 0, bytes % size == 0 {
                try container.encode("\(bytes / size) \(unit)")
                return
            }
        }
        try container.encode("\(bytes)")
    }
}
