import Foundation

/// The keys `config.json` may hold, checked before decoding.
enum ConfigurationKeys {
    private static let top: Set = ["library", "cache", "renditions", "workers", "pixelLimit", "deliveryMode"]
    private static let nested: [String: Set<String>] = [
        "library": ["roots", "includeHidden"],
        "cache": ["path", "budget"],
        "renditions": ["name", "size", "mode", "format", "quality", "upscale"],
    ]

    /// Throws a `DecodingError` naming the first unknown key by its JSON path.
    static func check(_ data: Data) throws {
        guard let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return }
        try check(root, allowed: top, path: [])
        for (name, allowed) in nested {
            if let object = root[name] as? [String: Any] {
                try check(object, allowed: allowed, path: [PathKey(name)])
            } else if let array = root[name] as? [Any] {
                for (index, element) in array.enumerated() {
                    guard let object = element as? [String: Any] else { continue }
                    try check(object, allowed: allowed, path: [PathKey(name), PathKey(index)])
                }
            }
        }
    }

    private static func check(_ object: [String: Any], allowed: Set<String>, path: [PathKey]) throws {
        for key in object.keys.sorted() where !allowed.contains(key) {
            throw DecodingError.dataCorrupted(.init(
                codingPath: path + [PathKey(key)],
                debugDescription: "unknown key; expected one of \(allowed.sorted().joined(separator: ", "))"))
        }
    }

    private struct PathKey: CodingKey {
        var stringValue: String
        var intValue: Int?

        init(_ name: String) { stringValue = name }
        init(_ index: Int) { stringValue = "\(index)"; intValue = index }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { self.init(intValue) }
    }
}
