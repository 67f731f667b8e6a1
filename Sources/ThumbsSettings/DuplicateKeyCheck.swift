import Foundation

/// Finds a key written twice in one object of a JSON document, at any depth.
///
/// Foundation's JSON readers keep one of two equal keys and say nothing, so a setting written
/// twice in `config.json` would be read from one place while the other is silently ignored
/// (and never even checked). This reads the bytes itself: a scanner of JSON's grammar that keeps
/// each open object's keys and compares them unescaped, as the decoder sees them (`"a"` and
/// `"\u0061"` are one key). A document it cannot follow is left to the decoder to report; it
/// throws only for a duplicate, and keeps the open objects and arrays on a stack of its own
/// rather than recursing, so no nesting exhausts the thread's stack.
struct DuplicateKeyCheck {
    /// An object or array the scanner is inside.
    private struct Container {
        let isObject: Bool
        /// An object's keys so far, and the one whose value is being read.
        var keys: Set<String> = []
        var currentKey = ""
        /// An array's element being read.
        var index = 0
    }

    private enum Expecting { case value, key, separatorOrEnd }

    private static let whitespace: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0D]
    private static let delimiters = Set(",:[]{}\"".utf8)

    private let bytes: [UInt8]
    private var position = 0
    private var open: [Container] = []

    /// Throws a `DecodingError` whose coding path names the first key, in the document's order,
    /// that its object holds already.
    static func check(_ data: Data) throws {
        var check = DuplicateKeyCheck(bytes: Array(data))
        try check.scan()
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private mutating func scan() throws {
        var expecting = Expecting.value
        while true {
            skipWhitespace()
            guard position < bytes.count else { return }
            let byte = bytes[position]
            switch expecting {
            case .value:
                if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
                    position += 1
                    open.append(Container(isObject: byte == UInt8(ascii: "{")))
                    skipWhitespace()
                    let closing = byte == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
                    if position < bytes.count, bytes[position] == closing {
                        position += 1
                        open.removeLast()
                        expecting = .separatorOrEnd
                    } else {
                        expecting = byte == UInt8(ascii: "{") ? .key : .value
                    }
                } else if byte == UInt8(ascii: "\"") {
                    guard readString() != nil else { return }
                    expecting = .separatorOrEnd
                } else {
                    guard skipLiteral() else { return }
                    expecting = .separatorOrEnd
                }
            case .key:
                guard byte == UInt8(ascii: "\""), let key = readString() else { return }
                skipWhitespace()
                guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { return }
                position += 1
                let last = open.count - 1
                guard open[last].keys.insert(key).inserted else { throw duplicate(key) }
                open[last].currentKey = key
                expecting = .value
            case .separatorOrEnd:
                // With nothing open, the document's one value is over: what follows is the decoder's to judge.
                guard let container = open.last else { return }
                position += 1
                if byte == UInt8(ascii: ",") {
                    if !container.isObject { open[open.count - 1].index += 1 }
                    expecting = container.isObject ? .key : .value
                } else if byte == (container.isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    open.removeLast()
                } else {
                    return
                }
            }
        }
    }

    /// The error for `key`, written twice in the innermost open object: its path runs through
    /// the keys and indexes of the containers around it.
    private func duplicate(_ key: String) -> DecodingError {
        let around: [any CodingKey] = open.dropLast().map { container -> any CodingKey in
            container.isObject ? AnyKey(stringValue: container.currentKey) : IndexKey(container.index)
        }
        return DecodingError.dataCorrupted(
            .init(
                codingPath: around + [AnyKey(stringValue: key)],
                debugDescription: "the key is written twice in one object; JSON readers would silently keep one"))
    }

    private mutating func skipWhitespace() {
        while position < bytes.count, Self.whitespace.contains(bytes[position]) { position += 1 }
    }

    /// Skips a number, `true`, `false` or `null` (or whatever else runs to the next delimiter:
    /// the decoder judges it). False when there is nothing to skip.
    private mutating func skipLiteral() -> Bool {
        let start = position
        while position < bytes.count, !Self.whitespace.contains(bytes[position]),
            !Self.delimiters.contains(bytes[position])
        {
            position += 1
        }
        return position > start
    }

    /// The string starting at the quote under `position`, unescaped; nil when it never ends or
    /// holds an escape JSON does not have.
    private mutating func readString() -> String? {
        position += 1
        var text: [UInt8] = []
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            if byte == UInt8(ascii: "\"") { return String(decoding: text, as: UTF8.self) }
            guard byte == UInt8(ascii: "\\") else {
                text.append(byte)
                continue
            }
            guard position < bytes.count else { return nil }
            let escape = bytes[position]
            position += 1
            switch escape {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(escape)
            case UInt8(ascii: "b"): text.append(0x08)
            case UInt8(ascii: "f"): text.append(0x0C)
            case UInt8(ascii: "n"): text.append(0x0A)
            case UInt8(ascii: "r"): text.append(0x0D)
            case UInt8(ascii: "t"): text.append(0x09)
            case UInt8(ascii: "u"):
                guard let scalar = readEscapedScalar() else { return nil }
                text.append(contentsOf: String(scalar).utf8)
            default: return nil
            }
        }
        return nil
    }

    /// The character of a `\u` escape whose `u` is behind `position`, a surrogate pair's two
    /// escapes joined; a lone surrogate is U+FFFD, as the decoder reads it.
    private mutating func readEscapedScalar() -> Unicode.Scalar? {
        guard let unit = readHexUnit() else { return nil }
        if (0xD800...0xDBFF).contains(unit), position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"),
            bytes[position + 1] == UInt8(ascii: "u")
        {
            let resume = position
            position += 2
            if let low = readHexUnit(), (0xDC00...0xDFFF).contains(low) {
                return Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))
            }
            position = resume
        }
        return Unicode.Scalar(unit) ?? "\u{FFFD}"
    }

    /// Four hexadecimal digits at `position`.
    private mutating func readHexUnit() -> UInt32? {
        guard position + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for byte in bytes[position..<position + 4] {
            guard let digit = UInt32(String(UnicodeScalar(byte)), radix: 16) else { return nil }
            value = value << 4 | digit
        }
        position += 4
        return value
    }
}
