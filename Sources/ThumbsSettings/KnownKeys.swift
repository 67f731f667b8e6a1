/// Unknown keys in `config.json` are errors, so that a misspelt key is never silently ignored.
/// Each section's allowed keys are its own coding keys: nothing to keep in step by hand.
protocol KnownKeys: CodingKey, CaseIterable {}

extension Decoder {
    /// Throws a `DecodingError` naming the first key (by its JSON path) of this object that is
    /// not one of `Keys`.
    func rejectUnknownKeys<Keys: KnownKeys>(_: Keys.Type) throws {
        let allowed = Set(Keys.allCases.map(\.stringValue))
        let present = try container(keyedBy: AnyKey.self).allKeys.map(\.stringValue)
        for key in present.sorted() where !allowed.contains(key) {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: codingPath + [AnyKey(stringValue: key)],
                    debugDescription: "unknown key; expected one of \(allowed.sorted().joined(separator: ", "))"))
        }
    }
}

/// Any key of a JSON object, to list what an object holds or name one in an error.
struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }

    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
