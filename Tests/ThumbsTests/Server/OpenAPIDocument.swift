import Foundation

/// docs/openapi.json, read for tests: its operations, and a check of a JSON answer against one
/// of its schemas (the part of JSON Schema the document uses: `type`, `required`, `properties`,
/// `items`, `enum`, `pattern`, local `$ref`s). Stricter than JSON Schema in one way: an object may
/// carry no field its schema does not name, so that nothing is sent undocumented.
struct OpenAPIDocument {
    let root: JSONValue

    /// The repository's document.
    init(file: String = #filePath) throws {
        let url = URL(fileURLWithPath: file).deletingLastPathComponent().appendingPathComponent(
            "../../../docs/openapi.json")
        root = try JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: url))
    }

    private static let methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]

    /// Every operation as `METHOD /path` (`GET /thumbnails/{id}/{rendition}`).
    var operations: Set<String> {
        Set(
            (root["paths"]?.object ?? [:]).flatMap { path, item in
                Self.methods.filter { item[$0] != nil }.map { "\($0.uppercased()) \(path)" }
            })
    }

    /// The statuses the document gives `operation` (`GET /api/assets`).
    func statuses(_ operation: String) -> Set<Int> {
        let (method, path) = Self.split(operation)
        return Set((root["paths"]?[path]?[method]?["responses"]?.object ?? [:]).keys.compactMap { Int($0) })
    }

    /// The JSON schema of `operation`'s answer of `status`; nil when the document gives it none.
    func answerSchema(_ operation: String, status: Int) -> JSONValue? {
        let (method, path) = Self.split(operation)
        let response = resolve(root["paths"]?[path]?[method]?["responses"]?[String(status)])
        return response?["content"]?["application/json"]?["schema"]
    }

    private static func split(_ operation: String) -> (method: String, path: String) {
        let parts = operation.split(separator: " ", maxSplits: 1)
        return (parts[0].lowercased(), String(parts[1]))
    }

    /// Where `value` differs from `schema`, one line each, `place` naming where it is.
    func mismatches(_ value: JSONValue, _ schema: JSONValue?, at place: String = "$") -> [String] {
        guard let schema = resolve(schema) else { return ["\(place): no schema"] }
        if let allowed = schema["enum"]?.array, !allowed.contains(value) {
            return ["\(place): \(value) is not one of \(allowed)"]
        }
        let types = schema["type"]?.array?.compactMap(\.string) ?? schema["type"]?.string.map { [$0] } ?? []
        guard types.isEmpty || types.contains(where: value.is) else {
            return ["\(place): \(value) is not \(types.joined(separator: " or "))"]
        }
        if let pattern = schema["pattern"]?.string, let text = value.string,
            text.range(of: pattern, options: .regularExpression) == nil
        {
            return ["\(place): \(text) does not match \(pattern)"]
        }
        if let array = value.array {
            return array.enumerated().flatMap { mismatches($1, schema["items"], at: "\(place)[\($0)]") }
        }
        guard let object = value.object else { return [] }
        let properties = schema["properties"]?.object ?? [:]
        let missing = (schema["required"]?.array ?? []).compactMap(\.string).filter { object[$0] == nil }
        return missing.map { "\(place).\($0): missing" }
            + object.keys.sorted().flatMap { key in
                properties[key].map { mismatches(object[key]!, $0, at: "\(place).\(key)") }
                    ?? ["\(place).\(key): not in the document"]
            }
    }

    /// `node` with its local `$ref`s (`#/components/…`) followed.
    private func resolve(_ node: JSONValue?) -> JSONValue? {
        var node = node
        while let reference = node?["$ref"]?.string {
            node = reference.dropFirst(2).split(separator: "/").reduce(root as JSONValue?) { $0?[String($1)] }
        }
        return node
    }
}
