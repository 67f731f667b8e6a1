import Foundation

/// Reading a value of `config.json` with its bounds, so that every bad value is an error naming
/// its JSON path: nothing is clamped or read as a default behind the user's back.
extension KeyedDecodingContainer {
    /// The whole number at `key` within `range`, or nil when the key is absent.
    ///
    /// Read as a number first: Foundation reports `80.5` read as an `Int` as invalid JSON without
    /// a path, and a value past `Int`'s range the same way.
    func decodeInteger(_ key: Key, in range: ClosedRange<Int>) throws -> Int? {
        guard contains(key) else { return nil }
        let number: Double
        do {
            number = try decode(Double.self, forKey: key)
        } catch {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: self,
                debugDescription: "expected a whole number in \(range.lowerBound)...\(range.upperBound)")
        }
        guard number.rounded() == number, number >= Double(range.lowerBound), number <= Double(range.upperBound) else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: self,
                debugDescription:
                    "expected a whole number in \(range.lowerBound)...\(range.upperBound), found \(Self.text(number))")
        }
        return Int(number)
    }

    /// The number of seconds at `key` within `range`, or nil when the key is absent.
    func decodeSeconds(_ key: Key, in range: ClosedRange<Double>) throws -> Double? {
        guard let value = try decodeIfPresent(Double.self, forKey: key) else { return nil }
        guard range.contains(value) else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: self,
                debugDescription:
                    "expected \(Self.text(range.lowerBound)) to \(Self.text(range.upperBound)) seconds, found \(Self.text(value))"
            )
        }
        return value
    }

    private static func text(_ number: Double) -> String {
        number.rounded() == number && abs(number) < 1e15 ? String(Int64(number)) : String(number)
    }
}

/// The key of an array element, for errors about one element of a list.
struct IndexKey: CodingKey {
    var intValue: Int?
    var stringValue: String { "\(intValue ?? 0)" }

    init(_ index: Int) { intValue = index }
    init?(intValue: Int) { self.intValue = intValue }
    init?(stringValue: String) { nil }
}
