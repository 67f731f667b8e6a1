/// Any JSON value, decoded as what it is (a boolean stays a boolean, an integer an integer), for
/// tests that compare answers with docs/openapi.json.
enum JSONValue: Decodable, Equatable, CustomStringConvertible {
    case null
    case boolean(Bool)
    case integer(Int)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .boolean(value)
        } else if let value = try? container.decode(Int.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    subscript(key: String) -> JSONValue? { object?[key] }

    var object: [String: JSONValue]? {
        if case .object(let value) = self { value } else { nil }
    }

    var array: [JSONValue]? {
        if case .array(let value) = self { value } else { nil }
    }

    var string: String? {
        if case .string(let value) = self { value } else { nil }
    }

    /// Whether the value is of JSON Schema's `type` (an integer is a number too).
    func `is`(_ type: String) -> Bool {
        switch (self, type) {
        case (.null, "null"), (.boolean, "boolean"), (.integer, "integer"), (.integer, "number"), (.number, "number"),
            (.string, "string"), (.array, "array"), (.object, "object"):
            true
        default: false
        }
    }

    var description: String {
        switch self {
        case .null: "null"
        case .boolean(let value): "\(value)"
        case .integer(let value): "\(value)"
        case .number(let value): "\(value)"
        case .string(let value): "\"\(value)\""
        case .array(let value): "[\(value.count) values]"
        case .object(let value): "{\(value.keys.sorted().joined(separator: ", "))}"
        }
    }
}
