/// What a request's `Range` field asks of a body of a known length (RFC 9110, 14.2): one range
/// of bytes, as a video element asks while it plays and seeks. Several ranges at once are
/// answered whole, as the RFC allows.
enum ByteRangeRequest: Equatable {
    /// No range, or one this server answers whole: the whole body.
    case whole
    /// Bytes `range` of the body.
    case part(ClosedRange<UInt64>)
    /// A range that starts past the body's end: 416.
    case unsatisfiable

    /// `field` is the `Range` field's value (nil when absent), `length` the body's length.
    init(_ field: String?, length: UInt64) {
        // The unit is case-insensitive; the positions are digits only (no sign, no space inside).
        guard let field, field.lowercased().hasPrefix("bytes="), !field.contains(",") else {
            self = .whole
            return
        }
        let spec = field.dropFirst("bytes=".count).trimmingSpaces
        guard let dash = spec.firstIndex(of: "-") else {
            self = .whole
            return
        }
        let first = spec[..<dash].trimmingSpaces, last = spec[spec.index(after: dash)...].trimmingSpaces
        guard first.allSatisfy(\.isASCIIDigit), last.allSatisfy(\.isASCIIDigit) else {
            self = .whole  // not a valid range: ignored, as the RFC says
            return
        }
        switch (UInt64(first), UInt64(last)) {
        case (let start?, _) where start >= length && (last.isEmpty || UInt64(last) != nil):
            self = .unsatisfiable
        case (let start?, let end?) where end >= start:
            self = .part(start...min(end, length - 1))
        case (let start?, nil) where last.isEmpty:
            self = .part(start...(length - 1))
        case (nil, let suffix?) where first.isEmpty:
            // The last `suffix` bytes; none of an empty body, or when 0 are asked for.
            self = suffix == 0 || length == 0 ? .unsatisfiable : .part((length - min(suffix, length))...(length - 1))
        default:
            self = .whole  // not a valid range (an end before its start, a number past 64 bits)
        }
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}

extension Substring {
    fileprivate var trimmingSpaces: Substring {
        var text = self
        while text.first == " " { text.removeFirst() }
        while text.last == " " { text.removeLast() }
        return text
    }
}
